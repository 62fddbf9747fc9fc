"""An AI-Shifu course folder (the course tool's layout) in the real server: what changed
since the last pull, in the course status. The other course folder tests (structure
order and problems, file renames, completion and rename) run in process in
tests/handlers/test_handlers_course_folder.py."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from e2e_session import capabilities, session, uri_of
from lsprotocol import types as t


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
