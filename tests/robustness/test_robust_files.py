"""Bad files in a course folder: the server indexes what it can, skips the rest, stays up,
and holds the same state a fresh workspace would."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest
from lsprotocol import types as t
from robust_session import PROBE, verify

from mfls import disk
from mfls.workspace.workspace import Workspace
from tests.kit.lsp_client import indexing_ended as ended
from tests.kit.lsp_client import push_capabilities, uri_of
from tests.kit.lsp_client import session as lsp_session
from tests.kit.waiting import wait_until

LESSON = "# One\n\n?[{{ colour }} Red | Blue]\n\nUse {{ colour }}, {{ size }} and " + PROBE + ".\n"


async def symbol_names(session: object, query: str) -> list[str]:
    found = await session.client.workspace_symbol_async(  # type: ignore[attr-defined]
        t.WorkspaceSymbolParams(query=query)
    )
    return sorted({s.name for s in found or []})


async def test_a_20_mb_file_is_skipped_on_disk_and_served_when_opened(tmp_path: Path) -> None:
    prose = "Prose about the topic, long enough to fill a line of a big lesson file.\n\n"
    big = prose * (20_000_000 // len(prose)) + "{{ big key }} " + PROBE + "\n"
    (tmp_path / "big.md").write_text(big, encoding="utf-8")
    (tmp_path / "a.md").write_text(LESSON, encoding="utf-8")
    async with lsp_session(folders=[tmp_path]) as session:
        await wait_until(ended(session))
        assert await symbol_names(session, "big key") == [], "a file over the limit is indexed"
        uri = uri_of(tmp_path / "a.md")
        session.open(uri, LESSON)
        await verify(session, uri, LESSON, [tmp_path])
        big_uri = uri_of(tmp_path / "big.md")
        began = time.monotonic()
        session.open(big_uri, big)
        answer = await session.client.text_document_hover_async(
            t.HoverParams(
                text_document=t.TextDocumentIdentifier(uri=big_uri),
                position=t.Position(line=big.count("\n") - 1, character=4),
            )
        )
        assert answer is not None and "big key" in str(answer.contents)
        print("opened and hovered 20 MB in", time.monotonic() - began)
        await verify(session, uri, LESSON, [tmp_path])


async def test_binary_and_latin_1_files_named_md_are_skipped(tmp_path: Path) -> None:
    (tmp_path / "binary.md").write_bytes(bytes(range(256)) * 64 + b"{{ in binary }}")
    (tmp_path / "latin1.md").write_bytes("Caf\u00e9 {{ cl\u00e9 latin }}\n".encode("latin-1"))
    (tmp_path / "nul.md").write_bytes(b"\x00\x00{{ after nul }}\x00\n")
    (tmp_path / "a.md").write_text(LESSON, encoding="utf-8")
    async with lsp_session(folders=[tmp_path]) as session:
        await wait_until(ended(session))
        assert await symbol_names(session, "in binary") == []
        assert await symbol_names(session, "latin") == []
        # Valid UTF-8 with NULs is text: NUL is a character like any other.
        assert await symbol_names(session, "after nul") == ["after nul"]
        uri = uri_of(tmp_path / "a.md")
        session.open(uri, LESSON)
        await verify(session, uri, LESSON, [tmp_path])


async def test_unreadable_entries_named_md_are_skipped(tmp_path: Path) -> None:
    """A directory, a FIFO (opening one would block) and, when not root, a mode-000 file."""
    (tmp_path / "folder.md").mkdir()
    (tmp_path / "folder.md" / "inner.md").write_text("{{ inner key }}\n", encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.md")
    locked = tmp_path / "locked.md"
    locked.write_text("{{ locked key }}\n", encoding="utf-8")
    locked.chmod(0)
    (tmp_path / "a.md").write_text(LESSON, encoding="utf-8")
    async with lsp_session(folders=[tmp_path]) as session:
        await wait_until(ended(session))
        assert await symbol_names(session, "inner key") == ["inner key"]
        if os.geteuid() != 0:  # root reads mode-000 files
            assert await symbol_names(session, "locked key") == []
        uri = uri_of(tmp_path / "a.md")
        session.open(uri, LESSON)
        await verify(session, uri, LESSON, [tmp_path])


async def test_a_fifo_named_like_the_course_file_does_not_block_indexing(tmp_path: Path) -> None:
    """Opening a FIFO blocks until a writer comes: the server must not open one."""
    fifo = tmp_path / "mfcourse.toml"
    os.mkfifo(fifo)
    (tmp_path / "a.md").write_text(LESSON, encoding="utf-8")
    async with lsp_session(folders=[tmp_path]) as session:
        try:
            await wait_until(ended(session), timeout=10)
            assert "colour" in await symbol_names(session, "colour")
            uri = uri_of(tmp_path / "a.md")
            session.open(uri, LESSON)
            await verify(session, uri, LESSON, [tmp_path])
        finally:
            release(fifo)


async def test_a_fifo_course_file_does_not_block_a_push_diagnostics_server(
    tmp_path: Path,
) -> None:
    """Push clients get the course file's diagnostics published, which reads its text:
    that read must not open the FIFO either, and the server keeps answering."""
    fifo = tmp_path / "mfcourse.toml"
    os.mkfifo(fifo)
    (tmp_path / "a.md").write_text(LESSON, encoding="utf-8")
    async with lsp_session(folders=[tmp_path], caps=push_capabilities()) as session:
        try:
            assert not session.pull
            await wait_until(ended(session), timeout=10)
            uri = uri_of(tmp_path / "a.md")
            session.open(uri, LESSON)
            await wait_until(lambda: uri in session.client.diagnostics, timeout=10)
            for _ in range(3):
                names = await asyncio.wait_for(symbol_names(session, "colour"), timeout=5)
                assert "colour" in names
            course_uri = uri_of(fifo)
            await wait_until(lambda: course_uri in session.client.diagnostics, timeout=10)
            codes = [d.code for d in session.client.diagnostics[course_uri]]
            assert codes == ["course-file-invalid"]
            await verify(session, uri, LESSON, [tmp_path])
        finally:
            release(fifo)


def release(fifo: Path) -> None:
    """Unblock a reader stuck on `fifo`, if any, so that the server process can end."""
    try:
        writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return  # no reader: nothing is blocked
    os.close(writer)


async def test_a_symlink_loop_and_dangling_links_are_walked_once(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text(LESSON, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.md").write_text("{{ in sub }}\n", encoding="utf-8")
    (tmp_path / "sub" / "loop").symlink_to(tmp_path)
    (tmp_path / "self").symlink_to(tmp_path / "self")
    (tmp_path / "x.md").symlink_to(tmp_path / "y.md")
    (tmp_path / "y.md").symlink_to(tmp_path / "x.md")
    (tmp_path / "dangling.md").symlink_to(tmp_path / "missing.md")
    async with lsp_session(folders=[tmp_path]) as session:
        await wait_until(ended(session))
        found = await session.client.workspace_symbol_async(t.WorkspaceSymbolParams(query="in sub"))
        assert [s.location.uri for s in found or []] == [uri_of(tmp_path / "sub" / "b.md")]
        uri = uri_of(tmp_path / "a.md")
        session.open(uri, LESSON)
        await verify(session, uri, LESSON, [tmp_path])


def test_files_deleted_while_indexing_runs_are_left_out(tmp_path: Path) -> None:
    """Deterministic: every document read deletes the next ones before they are read."""
    names = [f"lesson{k:02}.md" for k in range(20)]
    for k, name in enumerate(names):
        (tmp_path / name).write_text(f"{{{{ key {k} }}}}\n", encoding="utf-8")

    class DeletingDisk(disk.RealDisk):
        def _delete_the_rest(self) -> None:
            for name in names[10:]:
                path = tmp_path / name
                if path.exists():
                    path.unlink()

        def read_text(
            self, path: str, root: str | None = None, max_bytes: int = disk.MAX_FILE_BYTES
        ) -> tuple[str | None, tuple[disk.DiskProblem, ...]]:
            found = super().read_text(path, root, max_bytes)
            if path.endswith(".md"):
                self._delete_the_rest()
            return found

        def read_bytes(
            self, path: str, root: str | None = None, max_bytes: int = disk.MAX_FILE_BYTES
        ) -> tuple[bytes | None, tuple[disk.DiskProblem, ...]]:
            found = super().read_bytes(path, root, max_bytes)
            if path.endswith(".md"):
                self._delete_the_rest()
            return found

    workspace = Workspace(disk=DeletingDisk())
    workspace.set_folders([str(tmp_path)])
    workspace.index_all()
    keys = workspace.snapshot.courses[str(tmp_path)].all_keys()
    assert sorted(keys) == sorted(f"key {k}" for k in range(10))


async def test_files_deleted_while_the_server_indexes(tmp_path: Path) -> None:
    for k in range(400):
        (tmp_path / f"l{k:03}.md").write_text(f"{{{{ key {k} }}}} " * 50 + "\n", encoding="utf-8")
    (tmp_path / "a.md").write_text(LESSON, encoding="utf-8")
    async with lsp_session(folders=[tmp_path]) as session:
        for k in range(0, 400, 2):
            (tmp_path / f"l{k:03}.md").unlink()
        await wait_until(ended(session))
        session.client.workspace_did_change_watched_files(
            t.DidChangeWatchedFilesParams(
                changes=[
                    t.FileEvent(uri=uri_of(tmp_path / f"l{k:03}.md"), type=t.FileChangeType.Deleted)
                    for k in range(0, 400, 2)
                ]
            )
        )
        await wait_until(ended(session, 2))
        assert "key 10" not in await symbol_names(session, "key 10")
        assert "key 11" in await symbol_names(session, "key 11")
        uri = uri_of(tmp_path / "a.md")
        session.open(uri, LESSON)
        await verify(session, uri, LESSON, [tmp_path])


async def test_a_course_file_with_syntax_errors_then_fixed(tmp_path: Path) -> None:
    course = tmp_path / "mfcourse.toml"
    course.write_text('host = "ai-shifu\nlessons = [\n', encoding="utf-8")
    lesson = "?[{{ probe }} A | B]\n\nHello {{ sys_user_nickname }}, " + PROBE + ".\n"
    (tmp_path / "a.md").write_text(lesson, encoding="utf-8")
    async with lsp_session(folders=[tmp_path]) as session:
        await wait_until(ended(session))
        uri = uri_of(tmp_path / "a.md")
        session.open(uri, lesson)
        broken = await session.diagnostics(uri)
        assert [code for code, _ in broken] == ["unbound-reference"]  # the generic host
        course_report = await session.client.text_document_diagnostic_async(
            t.DocumentDiagnosticParams(text_document=t.TextDocumentIdentifier(uri=uri_of(course)))
        )
        assert [d.code for d in course_report.items] == ["course-file-invalid"]
        await verify(session, uri, lesson, [tmp_path])

        # The learner page's checks off: its `{{ probe }}` binding is the point here.
        course.write_text('host = "ai-shifu"\ntarget = "current"\npage = []\n', encoding="utf-8")
        session.client.workspace_did_change_watched_files(
            t.DidChangeWatchedFilesParams(
                changes=[t.FileEvent(uri=uri_of(course), type=t.FileChangeType.Changed)]
            )
        )
        await wait_until(ended(session, 2))
        assert await session.diagnostics(uri) == []
        course_report = await session.client.text_document_diagnostic_async(
            t.DocumentDiagnosticParams(text_document=t.TextDocumentIdentifier(uri=uri_of(course)))
        )
        assert list(course_report.items) == []
        await verify(session, uri, lesson, [tmp_path])


def test_limits_skip_big_files_and_stop_listing_after_the_document_count(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The documented limits (docs/robustness.md): 8 MiB per file, 20,000 files per folder.
    Scaled down here; beyond them files are left out with one log line, nothing fails."""
    assert (disk.MAX_FILE_BYTES, disk.MAX_DOCUMENTS) == (8 * 1024 * 1024, 20_000)
    for k in range(12):
        (tmp_path / f"l{k:02}.md").write_text(f"{{{{ key {k} }}}}\n", encoding="utf-8")
    (tmp_path / "l03.md").write_text("{{ key 3 }}" + " " * 100 + "\n", encoding="utf-8")
    workspace = Workspace(max_file_bytes=50, max_documents=8)
    workspace.set_folders([str(tmp_path)])
    with caplog.at_level("WARNING", logger="mfls"):
        workspace.index_all()
    keys = workspace.snapshot.courses[str(tmp_path)].all_keys()
    assert sorted(keys) == sorted(f"key {k}" for k in (0, 1, 2, 4, 5, 6, 7))
    assert any("over the 50-byte limit" in r.getMessage() for r in caplog.records)
    assert any("after 8 files" in r.getMessage() for r in caplog.records)


async def test_workspace_folders_that_are_missing_files_or_odd_are_survived(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.md").write_text(LESSON, encoding="utf-8")
    (tmp_path / "plain.txt").write_text("not a folder", encoding="utf-8")
    folders = [tmp_path / "missing", tmp_path / "plain.txt", tmp_path, tmp_path / "." / "."]
    async with lsp_session(folders=folders) as session:
        await wait_until(ended(session))
        session.client.workspace_did_change_workspace_folders(
            t.DidChangeWorkspaceFoldersParams(
                event=t.WorkspaceFoldersChangeEvent(
                    added=[t.WorkspaceFolder(uri="http://example.invalid/x", name="web")],
                    removed=[t.WorkspaceFolder(uri=uri_of(tmp_path / "never"), name="never")],
                )
            )
        )
        session.client.workspace_did_change_watched_files(
            t.DidChangeWatchedFilesParams(
                changes=[
                    t.FileEvent(uri="http://example.invalid/y.md", type=t.FileChangeType.Created),
                    t.FileEvent(uri=uri_of(tmp_path / "gone.md"), type=t.FileChangeType.Deleted),
                ]
            )
        )
        await wait_until(ended(session, 2))
        assert "colour" in await symbol_names(session, "colour")
        uri = uri_of(tmp_path / "a.md")
        session.open(uri, LESSON)
        await verify(session, uri, LESSON, [tmp_path])
