"""The editor's rename edits what is on disk (a real `python -m mfls` process).

For each closed document the edit is computed from the file's current bytes: a lesson
saved by another program without a watcher event, or right before one is processed, gets
edits that fit it; a lesson that is not valid UTF-8 makes the rename refuse, as
`mfls rename` does; a file reached under two names is edited once. The texts are ASCII, so
edits are applied by plain line/character positions.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from lsprotocol import types as t
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from tests.kit.files import write_files as write
from tests.kit.lsp_client import capabilities, session
from tests.kit.waiting import wait_until

TOML = 'host = "generic"\n'
OPEN = "?[{{ topic }} A | B]\n"


def uri(path: Path) -> str:
    return Path(os.path.abspath(path)).as_uri()


@contextlib.asynccontextmanager
async def server(
    folder: Path, caps: t.ClientCapabilities | None = None
) -> AsyncIterator[LanguageClient]:
    """The kit's client of a real server on `folder`, once its first indexing ended."""
    async with session(caps or capabilities(), [folder], indexed=True) as started:
        yield started.client


def open_doc(client: LanguageClient, path: Path) -> str:
    doc = uri(path)
    client.text_document_did_open(
        t.DidOpenTextDocumentParams(
            text_document=t.TextDocumentItem(
                uri=doc, language_id="markdown", version=1, text=path.read_text()
            )
        )
    )
    return doc


async def rename(client: LanguageClient, doc: str, line: int, character: int) -> t.WorkspaceEdit:
    answer = await client.text_document_rename_async(
        t.RenameParams(
            text_document=t.TextDocumentIdentifier(uri=doc),
            position=t.Position(line=line, character=character),
            new_name="subject",
        )
    )
    assert answer is not None
    return answer


def edits_of(edit: t.WorkspaceEdit) -> dict[str, list[t.TextEdit]]:
    found: dict[str, list[t.TextEdit]] = {}
    for change in edit.document_changes or []:
        assert isinstance(change, t.TextDocumentEdit)
        found.setdefault(change.text_document.uri, []).extend(change.edits)  # type: ignore[arg-type]
    for doc, edits in (edit.changes or {}).items():
        found.setdefault(doc, []).extend(edits)
    return found


def applied(text: str, edits: list[t.TextEdit]) -> str:
    """`edits` applied to an ASCII `text` (positions: line, character)."""
    starts = [0]
    for line in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))

    def offset(p: t.Position) -> int:
        return starts[p.line] + p.character

    for e in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end) :]
    return text


def apply_to_disk(edit: t.WorkspaceEdit, skip: str = "") -> None:
    """What an editor does with the edit of a closed document: apply it to the file
    (`skip`: the open document, whose edit goes to its buffer)."""
    for doc, edits in edits_of(edit).items():
        if doc == skip:
            continue
        path = Path(doc.removeprefix("file://"))
        path.write_text(applied(path.read_text(), edits))


@pytest.fixture
def course(tmp_path: Path) -> Path:
    root = tmp_path / "course"
    write(
        root,
        {
            "mfcourse.toml": TOML,
            "a.md": OPEN,
            "b.md": "Use {{ topic }} here.\n",
            "c.md": "Also {{ topic }}.\n",
        },
    )
    return root


async def test_a_closed_lesson_changed_on_disk_without_a_watcher_event(course: Path) -> None:
    async with server(course) as client:
        doc = open_doc(client, course / "a.md")
        # Saved by another program; no didChangeWatchedFiles.
        (course / "b.md").write_text("A new first paragraph.\n\nNow {{topic}} and {{ topic }}.\n")
        (course / "c.md").write_text("No key left here.\n")
        edit = await rename(client, doc, 0, 5)
        found = edits_of(edit)
        assert uri(course / "c.md") not in found
        apply_to_disk(edit)
    assert (course / "b.md").read_text() == (
        "A new first paragraph.\n\nNow {{ subject }} and {{ subject }}.\n"
    )
    assert (course / "c.md").read_text() == "No key left here.\n"


async def test_a_rename_right_after_a_watcher_event(course: Path) -> None:
    async with server(course) as client:
        doc = open_doc(client, course / "a.md")
        for round_ in range(5):
            prefix = "Line.\n" * (round_ + 1)
            (course / "b.md").write_text(f"{prefix}\nNow {{{{ topic }}}} x{round_}.\n")
            client.workspace_did_change_watched_files(
                t.DidChangeWatchedFilesParams(
                    changes=[t.FileEvent(uri=uri(course / "b.md"), type=t.FileChangeType.Changed)]
                )
            )
            edit = await rename(client, doc, 0, 5)
            assert uri(course / "b.md") in edits_of(edit), (round_, edit)
            b_edits = edits_of(edit)[uri(course / "b.md")]
            assert applied((course / "b.md").read_text(), b_edits) == (
                f"{prefix}\nNow {{{{ subject }}}} x{round_}.\n"
            )


async def test_a_lesson_that_is_not_utf8_makes_the_editor_rename_refuse(course: Path) -> None:
    write(course, {"d.md": b"Bad \xff byte {{ other }}.\n"})
    async with server(course) as client:
        doc = open_doc(client, course / "a.md")
        with pytest.raises(JsonRpcException) as refused:
            await rename(client, doc, 0, 5)
        assert "d.md" in str(refused.value) and "UTF-8" in str(refused.value)
    assert (course / "b.md").read_text() == "Use {{ topic }} here.\n"


async def test_a_lesson_that_stops_being_utf8_makes_the_rename_refuse(course: Path) -> None:
    async with server(course) as client:
        doc = open_doc(client, course / "a.md")
        (course / "b.md").write_bytes(b"Use {{ topic }} \xfe here.\n")
        with pytest.raises(JsonRpcException) as refused:
            await rename(client, doc, 0, 5)
        assert "b.md" in str(refused.value)


async def test_a_folder_reached_twice_through_a_link_gets_one_edit_per_file(
    tmp_path: Path,
) -> None:
    root = tmp_path / "course"
    write(
        root,
        {
            "mfcourse.toml": TOML,
            "lessons/a.md": OPEN,
            "lessons/b.md": "Use {{ topic }} here.\n",
        },
    )
    # "alias" sorts before "lessons": the walk meets the files under the link's name first.
    (root / "alias").symlink_to("lessons", target_is_directory=True)
    (root / "lessons" / "same.md").symlink_to("b.md")
    async with server(root) as client:
        doc = open_doc(client, root / "lessons" / "a.md")
        edit = await rename(client, doc, 0, 5)
        found = edits_of(edit)
        real = {os.path.realpath(d.removeprefix("file://")) for d in found}
        assert len(real) == len(found), sorted(found)
        assert uri(root / "lessons" / "a.md") in found  # the open document's own name
        apply_to_disk(edit, skip=doc)
    assert (root / "lessons" / "b.md").read_text() == "Use {{ subject }} here.\n"
    assert (root / "lessons" / "a.md").read_text() == OPEN  # open: the editor applies it
    assert (root / "lessons" / "same.md").is_symlink()


async def test_links_out_of_the_root_are_not_edited_after_the_course_file_comes_back(
    tmp_path: Path,
) -> None:
    # The workspace folder holds the course and, beside it, a folder the course links to:
    # while the course file is gone the links lead inside the (folder's) course; once it
    # is back they lead out of the course root again.
    outside = tmp_path / "outside"
    write(outside, {"x.md": "Outside {{ topic }}.\n"})
    root = tmp_path / "course"
    write(root, {"mfcourse.toml": TOML, "a.md": OPEN})
    (root / "out").symlink_to(outside, target_is_directory=True)
    (root / "out.md").symlink_to(outside / "x.md")
    async with server(tmp_path) as client:
        doc = open_doc(client, root / "a.md")
        course_file = root / "mfcourse.toml"
        for kind, action in (
            (t.FileChangeType.Deleted, course_file.unlink),
            (t.FileChangeType.Created, lambda: course_file.write_text(TOML)),
        ):
            action()
            client.workspace_did_change_watched_files(
                t.DidChangeWatchedFilesParams(
                    changes=[t.FileEvent(uri=uri(course_file), type=kind)]
                )
            )
            await asyncio.sleep(0.5)
        refs = await client.text_document_references_async(
            t.ReferenceParams(
                text_document=t.TextDocumentIdentifier(uri=doc),
                position=t.Position(line=0, character=5),
                context=t.ReferenceContext(include_declaration=True),
            )
        )
        assert {r.uri for r in refs or []} == {doc}  # the index holds no link out
        edit = await rename(client, doc, 0, 5)
        assert set(edits_of(edit)) == {doc}
    assert (outside / "x.md").read_text() == "Outside {{ topic }}.\n"


async def test_a_pending_rename_journal_is_shown_once_and_stops_the_editor_rename(
    course: Path,
) -> None:
    journal = course / ".mfls" / "rename-journal.json"
    journal.parent.mkdir()
    journal.write_text(
        '{"version": 1, "old_key": "topic", "new_key": "subject", "phase": "swapping", '
        '"pid": 0, "files": []}'
    )
    async with server(course) as client:
        doc = open_doc(client, course / "a.md")

        def shown() -> list[str]:
            return [m.message for m in client.messages if "interrupted rename" in m.message]

        await wait_until(lambda: bool(shown()))
        with pytest.raises(JsonRpcException) as refused:
            await rename(client, doc, 0, 5)
        assert "mfls rename --resume" in str(refused.value)
        # Another indexing pass (a watcher event) does not repeat the warning.
        (course / "b.md").write_text("Use {{ topic }} again.\n")
        client.workspace_did_change_watched_files(
            t.DidChangeWatchedFilesParams(
                changes=[t.FileEvent(uri=uri(course / "b.md"), type=t.FileChangeType.Changed)]
            )
        )
        await asyncio.sleep(0.5)
        assert len(shown()) == 1
        assert "'topic' to 'subject'" in shown()[0] and "--undo" in shown()[0]
        assert client.messages[-1].type == t.MessageType.Warning
        journal.unlink()
        edit = await rename(client, doc, 0, 5)
        assert uri(course / "b.md") in edits_of(edit)


async def test_a_fifo_in_place_of_the_journal_does_not_block_the_server(course: Path) -> None:
    (course / ".mfls").mkdir()
    os.mkfifo(course / ".mfls" / "rename-journal.json")
    async with server(course) as client:
        doc = open_doc(client, course / "a.md")
        with pytest.raises(JsonRpcException) as refused:
            await asyncio.wait_for(rename(client, doc, 0, 5), 10)
        assert "cannot be read" in str(refused.value)


async def test_a_file_name_that_is_not_utf8_does_not_stop_indexing(course: Path) -> None:
    bad = os.fsencode(str(course)) + b"/bad\xff.md"
    with open(bad, "wb") as file:
        file.write(b"Also {{ topic }} here.\n")
    async with server(course) as client:
        doc = open_doc(client, course / "a.md")
        refs = await client.text_document_references_async(
            t.ReferenceParams(
                text_document=t.TextDocumentIdentifier(uri=doc),
                position=t.Position(line=0, character=5),
                context=t.ReferenceContext(include_declaration=True),
            )
        )
        found = {r.uri.rsplit("/", 1)[1] for r in refs or []}
        assert found == {"a.md", "b.md", "c.md", "bad%FF.md"}
        edit = await rename(client, doc, 0, 5)
        assert {d.rsplit("/", 1)[1] for d in edits_of(edit)} == found
