"""An AI-Shifu course folder (the course tool's layout) in the real server: structure
order, structure.json's problems published on it, a deleted lesson's entry."""

from __future__ import annotations

import json
from pathlib import Path

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
