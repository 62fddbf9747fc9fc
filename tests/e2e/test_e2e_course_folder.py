"""An AI-Shifu course folder (the course tool's layout) in the real server: structure
order, structure.json's problems published on it, a deleted lesson's entry."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from e2e_session import capabilities, session, uri_of, wait_until, write_files
from lsprotocol import types as t


def place(text: str, needle: str) -> tuple[int, int]:
    """(line, character) of `needle` in `text` (ASCII)."""
    before = text[: text.index(needle)]
    return before.count("\n"), len(before) - (before.rfind("\n") + 1)


def structure(files: list[str]) -> str:
    lessons = [{"file": f, "title": f} for f in files]
    return json.dumps({"chapters": [{"title": "One", "lessons": lessons}]}, indent=2) + "\n"


async def test_structure_json_problems_and_order_in_the_server(tmp_path: Path) -> None:
    listed = structure(["lesson-02.md", "lesson-01.md", "gone.md"])
    write_files(
        tmp_path,
        {
            "README.md": "# A course\n",
            "course-prompt.md": "Teach {{ sys_user_nickname }}.\n",
            "structure.json": listed,
            "lessons/lesson-01.md": "?[%{{ goal }}...Your goal]\n",
            "lessons/lesson-02.md": "Aim for {{ goal }}\n",
        },
    )
    async with session(capabilities("visual-studio-code"), [tmp_path]) as s:
        await s.indexed()
        structure_uri = uri_of(tmp_path / "structure.json")
        items = await s.pushed(structure_uri, lambda d: len(d) > 0)
        assert [(d.code, d.range.start.line, d.range.start.character) for d in items] == [
            ("course-file-invalid", *place(listed, '"gone.md"'))
        ]
        assert "`gone.md` is not in lessons/" in items[0].message
        # The editor reports changes to the folder's structure and sync record.
        await wait_until(lambda: bool(s.registrations))
        watched = {
            w["globPattern"]
            for r in s.registrations
            for w in r.register_options["watchers"]
            if isinstance(w["globPattern"], str)
        }
        assert {"**/structure.json", "**/.shifu-sync.json"} <= watched
        # Listed first, lesson-02 reads what lesson-01 asks.
        lesson = s.open(tmp_path / "lessons" / "lesson-02.md")
        found = await s.pushed(lesson, lambda d: len(d) > 0)
        assert [d.code for d in found] == ["read-before-asked"]

        # The asking lesson deleted: its entry gets the missing-file diagnostic.
        gone = tmp_path / "lessons" / "lesson-01.md"
        gone.unlink()
        s.client.workspace_did_change_watched_files(
            t.DidChangeWatchedFilesParams(
                changes=[t.FileEvent(uri=uri_of(gone), type=t.FileChangeType.Deleted)]
            )
        )
        items = await s.pushed(structure_uri, lambda d: len(d) == 2)
        lines = [place(listed, '"lesson-01.md"')[0], place(listed, '"gone.md"')[0]]
        assert [d.range.start.line for d in items] == lines
        assert "`lesson-01.md` is not in lessons/" in items[0].message
        await s.pushed(lesson, lambda d: [x.code for x in d] == ["unbound-reference"])

        # structure.json broken: one diagnostic at the place, nothing crashes.
        (tmp_path / "structure.json").write_text('{"chapters": [\n  {"title": }\n]}\n')
        s.client.workspace_did_change_watched_files(
            t.DidChangeWatchedFilesParams(
                changes=[t.FileEvent(uri=structure_uri, type=t.FileChangeType.Changed)]
            )
        )
        items = await s.pushed(structure_uri, lambda d: len(d) == 1 and d[0].range.start.line == 1)
        assert "not valid JSON" in items[0].message
        await wait_until(lambda: s.client.diagnostics.get(lesson) is not None)


def unpacked_folder(tmp_path: Path) -> Path:
    """A course folder laid out by `mfls unpack --layout course-creator` (so
    `.shifu-sync.json` holds the hashes of the lessons as written)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "exports"))
    from exports_kit import dumps, export, item, node

    from mfls.exports.ai_shifu import Export, read_export
    from mfls.exports.course_creator import unpack_course_creator

    items = [
        item("c", "Chapter"),
        item("a", "Ask", "?[%{{ goal }}...Your goal]\n", parent="c"),
        item("b", "Use", "Aim for {{ goal }}\r\nand more\n", parent="c"),
        item("d", "Last", "Bye\n", parent="c"),
    ]
    source = dumps(export(items, [node("c", [node("a"), node("b"), node("d")])]))
    loaded = read_export(source)
    assert isinstance(loaded, Export)
    folder = tmp_path / "course"
    for name, data in unpack_course_creator(loaded, source, "x.json").files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return folder


async def test_changed_since_last_pull_in_the_course_status(tmp_path: Path) -> None:
    folder = unpacked_folder(tmp_path)
    lessons = folder / "lessons"
    async with session(capabilities("visual-studio-code"), [folder]) as s:
        await s.indexed()
        first = s.open(lessons / "lesson-01.md")

        async def since() -> tuple[dict[str, Any], dict[str, Any]]:
            info = await s.client.workspace_execute_command_async(
                t.ExecuteCommandParams(command="mfls.courseInfo", arguments=[first])
            )
            keys = await s.client.workspace_execute_command_async(
                t.ExecuteCommandParams(command="mfls.courseKeys", arguments=[first])
            )
            return info["sinceLastPull"], keys["sinceLastPull"]

        # As the tool computes the hash, lesson-02 (written with \r\n, read in text mode
        # as \n) already differs from what pull recorded; the others match.
        info, keys = await since()
        assert info == keys
        assert [c["file"] for c in info["changed"]] == ["lessons/lesson-02.md"]
        assert info["gone"] == []

        # An edit in the editor counts before it is saved.
        s.change(first, [t.TextDocumentContentChangeWholeDocument(text="?[%{{ goal }}...Goal]\n")])
        info, _ = await since()
        assert [c["file"] for c in info["changed"]] == [
            "lessons/lesson-01.md",
            "lessons/lesson-02.md",
        ]

        # Renamed on disk (the structure follows): the recorded name is gone, and the
        # answer says what the course tool will do with it.
        old, new = lessons / "lesson-03.md", lessons / "last.md"
        old.rename(new)
        listed = json.loads((folder / "structure.json").read_text())
        listed["chapters"][0]["lessons"][2]["file"] = "last.md"
        (folder / "structure.json").write_text(json.dumps(listed, indent=2) + "\n")
        s.client.workspace_did_change_watched_files(
            t.DidChangeWatchedFilesParams(
                changes=[
                    t.FileEvent(uri=uri_of(old), type=t.FileChangeType.Deleted),
                    t.FileEvent(uri=uri_of(new), type=t.FileChangeType.Created),
                    t.FileEvent(
                        uri=uri_of(folder / "structure.json"), type=t.FileChangeType.Changed
                    ),
                ]
            )
        )

        async def gone() -> bool:
            info, _ = await since()
            return bool(info["gone"])

        for _ in range(200):
            if await gone():
                break
            await asyncio.sleep(0.05)
        info, _ = await since()
        assert info["gone"] == [{"file": "lessons/lesson-03.md", "name": "Last"}]
        assert "`status` counts it up to date" in info["goneFate"]
        assert "`import --course-dir` recreates every lesson" in info["goneFate"]


async def test_will_rename_files_keeps_structure_json_naming_the_lessons(tmp_path: Path) -> None:
    listed = structure(["lesson-01.md", "lesson-02.md"])
    write_files(
        tmp_path,
        {
            "structure.json": listed,
            "lessons/lesson-01.md": "?[%{{ goal }}...Your goal]\n",
            "lessons/lesson-02.md": "Aim for {{ goal }}\n",
        },
    )
    async with session(capabilities("visual-studio-code"), [tmp_path]) as s:
        assert s.result is not None
        operations = s.result.capabilities.workspace
        assert operations is not None and operations.file_operations is not None
        assert operations.file_operations.will_rename is not None
        await s.indexed()
        old, new = tmp_path / "lessons" / "lesson-01.md", tmp_path / "lessons" / "ask goal.md"
        edit = await s.client.workspace_will_rename_files_async(
            t.RenameFilesParams(files=[t.FileRename(old_uri=uri_of(old), new_uri=uri_of(new))])
        )
        assert edit is not None and edit.changes is not None
        structure_uri = uri_of(tmp_path / "structure.json")
        assert list(edit.changes) == [structure_uri]
        (change,) = edit.changes[structure_uri]
        line, character = place(listed, '"lesson-01.md"')
        assert (change.range.start.line, change.range.start.character) == (line, character)
        assert change.range.end.character == character + len('"lesson-01.md"')
        assert change.new_text == '"ask goal.md"'

        # The editor applies it, renames the file and reports both: the course keeps
        # its order and no entry is missing.
        lines = listed.splitlines(keepends=True)
        lines[line] = lines[line].replace('"lesson-01.md"', '"ask goal.md"')
        (tmp_path / "structure.json").write_text("".join(lines))
        old.rename(new)
        s.client.workspace_did_change_watched_files(
            t.DidChangeWatchedFilesParams(
                changes=[
                    t.FileEvent(uri=uri_of(old), type=t.FileChangeType.Deleted),
                    t.FileEvent(uri=uri_of(new), type=t.FileChangeType.Created),
                    t.FileEvent(uri=structure_uri, type=t.FileChangeType.Changed),
                ]
            )
        )
        lesson = s.open(tmp_path / "lessons" / "lesson-02.md")
        await s.pushed(lesson, lambda d: d == [])
        assert not s.client.diagnostics.get(structure_uri)
        # A file no course lists: no edit.
        other = await s.client.workspace_will_rename_files_async(
            t.RenameFilesParams(
                files=[
                    t.FileRename(
                        old_uri=uri_of(tmp_path / "notes.md"), new_uri=uri_of(tmp_path / "n.md")
                    )
                ]
            )
        )
        assert other is None


async def test_completion_and_rename_follow_the_course_folder(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "README.md": "# A course\n\nNot a lesson: {{ goal }}\n",
            "course-prompt.md": "Keep {{ goal }} in mind.\n",
            "structure.json": structure(["lesson-01.md", "lesson-02.md"]),
            "lessons/lesson-01.md": "?[%{{ goal }}...Your goal]\n",
            "lessons/lesson-02.md": "Aim for {{ goal }}\n{{\n",
            "lessons/notes.md": "{{ goal }} (not listed)\n",
        },
    )
    async with session(capabilities("visual-studio-code"), [tmp_path]) as s:
        await s.indexed()
        lesson = s.open(tmp_path / "lessons" / "lesson-02.md")
        doc = t.TextDocumentIdentifier(uri=lesson)
        completion = await s.client.text_document_completion_async(
            t.CompletionParams(text_document=doc, position=t.Position(line=1, character=2))
        )
        assert completion is not None
        items = completion.items if isinstance(completion, t.CompletionList) else completion
        assert "goal" in [item.label for item in items]
        edit = await s.client.text_document_rename_async(
            t.RenameParams(
                text_document=doc, position=t.Position(line=0, character=12), new_name="aim"
            )
        )
        assert edit is not None
        changed = set(edit.changes or {}) | {
            c.text_document.uri
            for c in edit.document_changes or []
            if isinstance(c, t.TextDocumentEdit)
        }
        # The lessons and the course prompt: not README.md, not a file structure.json omits.
        assert changed == {
            uri_of(tmp_path / "lessons" / "lesson-01.md"),
            lesson,
            uri_of(tmp_path / "course-prompt.md"),
        }
