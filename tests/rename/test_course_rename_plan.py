"""Renaming in a whole course: loading it from disk (`mfls.workspace.loading`), then
planning the rename as data (`mfls.features.course_rename`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from mfls.disk import DiskProblem
from mfls.features import course_rename as cr
from mfls.features.refusal import Refusal
from mfls.workspace.loading import load_course, skipped_holding


def test_loading_returns_the_course_and_the_skipped_files_as_data(
    make_course: Callable[..., Path],
) -> None:
    root = make_course(
        {
            "a.md": "?[{{ q }} A | B]\n",
            "latin.md": "caf\xe9 {{ q }}\n".encode("latin-1"),
            "other.md": b"\xff {{ r }}\n",
        }
    )
    loaded = load_course(str(root), ("q",))
    assert loaded.is_folder and loaded.course is not None
    assert [e.label for e in loaded.course.docs.values()] == ["a.md"]
    assert set(loaded.problems) == {
        DiskProblem(str(root / "latin.md"), "not valid UTF-8 (byte 3)"),
        DiskProblem(str(root / "other.md"), "not valid UTF-8 (byte 0)"),
    }
    assert skipped_holding(loaded.problems, b"{{ q }}") == (str(root / "latin.md"),)


def test_loading_something_that_is_no_course(tmp_path: Path) -> None:
    (tmp_path / "file.md").write_text("x")
    assert not load_course(str(tmp_path / "file.md")).is_folder
    assert not load_course(str(tmp_path / "missing")).is_folder
    (tmp_path / "empty").mkdir()
    empty = load_course(str(tmp_path / "empty"))
    assert empty.is_folder and empty.problems == ()
    assert empty.course is not None and not empty.course.docs


def test_refusals_are_data(make_course: Callable[..., Path]) -> None:
    root = make_course({"a.md": "?[{{ q }} A | B]\n\n?[{{ r }} C | D]\n"})
    loaded = load_course(str(root))
    assert loaded.course is not None
    conflict = cr.plan_course_rename(loaded.course, "q", "r")
    assert isinstance(conflict, Refusal) and conflict.conflict
    assert (conflict.old_key, conflict.new_key) == ("q", "r")
    assert "a.md:3 (binding)" in conflict.message
    missing = cr.plan_course_rename(loaded.course, "missing", "x")
    assert isinstance(missing, Refusal) and not missing.conflict
    half = cr.plan_course_rename(loaded.course, "q", "s", ["/course/latin.md"])
    assert isinstance(half, Refusal) and half.message.endswith("half-renamed: /course/latin.md")
    change = cr.plan_course_rename(loaded.course, "q", "s")
    assert not isinstance(change, Refusal) and change.markers == 1
    writes = cr.file_changes(change)
    assert isinstance(writes, list)
    assert [(w.path.name, w.new) for w in writes] == [
        ("a.md", b"?[{{ s }} A | B]\n\n?[{{ r }} C | D]\n")
    ]


def test_an_old_key_no_marker_can_hold_is_unusable() -> None:
    assert cr.old_key_of(" q ") == "q"
    assert cr.old_key_of("q\udcff") == cr.Unusable(
        "OLD is not valid UTF-8 text, so no marker can hold it"
    )
    unusable = cr.old_key_of("")
    assert isinstance(unusable, cr.Unusable) and unusable.message.startswith("OLD is not a key")
    assert cr.keys_of_interest("q", "new q") == ("q", "new q")
    assert cr.keys_of_interest("q", "") == ("q",)
