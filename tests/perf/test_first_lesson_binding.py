"""`CourseSnapshot.first_lesson_binding` is the first of `lesson_bindings` in course order."""

from __future__ import annotations

import random
from pathlib import Path

from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace


def test_first_lesson_binding_matches_the_resolved_bindings(tmp_path: Path) -> None:
    rng = random.Random(7)
    keys = [f"k{n}" for n in range(12)]
    (tmp_path / "mfcourse.toml").write_text(
        'lessons = ["b.md", "a.md", "c.md"]\nreferences = ["ref.md"]\n', encoding="utf-8"
    )
    for name in ("a.md", "b.md", "c.md", "ref.md"):
        parts = [
            f"?[{{{{ {rng.choice(keys)} }}}} X]"
            if rng.random() < 0.4
            else f"{{{{ {rng.choice(keys)} }}}}"
            for _ in range(15)
        ]
        (tmp_path / name).write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    workspace = Workspace()
    workspace.set_folders([str(tmp_path)])
    workspace.index_all()
    uri = path_to_uri(str(tmp_path / "a.md"))
    workspace.open(uri, (tmp_path / "a.md").read_text(encoding="utf-8"), 1)
    for step in range(8):
        course = workspace.snapshot.course_for(uri)
        assert course is not None
        for key in [*keys, "absent"]:
            bound = course.lesson_bindings(key)
            expected = min(bound, key=course.position) if bound else None
            assert course.first_lesson_binding(key) == expected
        workspace.change(uri, [(0, 0, f"?[{{{{ {rng.choice(keys)} }}}} Y]\n\n")], step + 2)


def test_first_lesson_binding_follows_edits_that_drop_and_move_bindings(tmp_path: Path) -> None:
    rng = random.Random(11)
    keys = [f"k{n}" for n in range(6)]
    (tmp_path / "mfcourse.toml").write_text(
        'lessons = ["b.md", "a.md", "c.md"]\nreferences = ["ref.md"]\n', encoding="utf-8"
    )
    names = ("a.md", "b.md", "c.md", "ref.md")

    def text() -> str:
        parts = [
            f"?[{{{{ {rng.choice(keys)} }}}} X]" if rng.random() < 0.3 else "plain"
            for _ in range(6)
        ]
        return "\n\n".join(parts) + "\n"

    for name in names:
        (tmp_path / name).write_text(text(), encoding="utf-8")
    workspace = Workspace()
    workspace.set_folders([str(tmp_path)])
    workspace.index_all()
    uris = [path_to_uri(str(tmp_path / name)) for name in names]
    for uri, name in zip(uris, names, strict=True):
        workspace.open(uri, (tmp_path / name).read_text(encoding="utf-8"), 1)
    for step in range(40):
        course = workspace.snapshot.course_for(uris[0])
        assert course is not None
        for key in [*keys, "absent"]:
            bound = course.lesson_bindings(key)
            expected = min(bound, key=course.position) if bound else None
            assert course.first_lesson_binding(key) == expected
            assert (key in set(course.lesson_bound_keys())) == bool(bound)
        uri = rng.choice(uris)
        entry = workspace.snapshot.entry(uri)
        assert entry is not None
        if rng.random() < 0.2:
            workspace.close(uri)
            workspace.open(uri, text(), step + 2)
        else:
            workspace.change(uri, [(0, len(entry[1].text), text())], step + 2)
