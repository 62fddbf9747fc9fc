"""The in-memory course of the feature tests, and the guard that keeps them off the disk."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from course_kit import ROOT, DiskTouched, course

from mfls.workspace.uris import path_to_uri


def test_names_and_texts_in_turn_or_a_mapping_give_the_same_course() -> None:
    by_turns = course("a.md", "?[{{ goal }} A]\n", "b.md", "{{ goal }}\n", config='name = "N"\n')
    by_mapping = course(
        {"a.md": "?[{{ goal }} A]\n", "b.md": "{{ goal }}\n", "mfcourse.toml": 'name = "N"\n'}
    )
    for made in (by_turns, by_mapping):
        [only] = made.snapshot.courses.values()
        assert only.root == ROOT and only.config.name == "N"
        assert set(only.docs) == {made.uri("a.md"), made.uri("b.md")}
    assert by_turns.text("b.md") == by_mapping.text("b.md") == "{{ goal }}\n"


def test_the_cursor_mark_is_taken_out_and_its_offset_kept() -> None:
    made = course("a.md", "x\n", "b.md", "?[{{ go$0al }} A]\n")
    assert made.text("b.md") == "?[{{ goal }} A]\n"
    assert made.offset == 7 == made.offset_of("b.md", "al")
    assert (made.cursor_name, made.cursor_uri) == ("b.md", path_to_uri("/course/b.md"))
    assert made.offset_of("b.md", "{{", 2) == 4


def test_a_missing_or_doubled_cursor_mark_is_an_error() -> None:
    with pytest.raises(ValueError, match="no cursor"):
        _ = course("a.md", "text").offset
    with pytest.raises(ValueError, match="more than one"):
        course("a.md", "$0 and $0")
    with pytest.raises(ValueError, match="more than one"):
        course("a.md", "$0", "b.md", "$0")
    with pytest.raises(TypeError):
        course("a.md")
    with pytest.raises(ValueError, match="twice"):
        course({"mfcourse.toml": ""}, config="")


def test_folders_make_separate_courses() -> None:
    made = course("one/a.md", "x\n", "two/b.md", "y\n", folders=["one", "two"])
    assert sorted(made.snapshot.courses) == ["/course/one", "/course/two"]
    assert made.workspace.disk_problems == ()


@pytest.mark.parametrize(
    "touch",
    [
        lambda: open(os.devnull),  # noqa: SIM115
        lambda: Path(os.devnull).read_text(),
        lambda: Path("/tmp/mfls-feature-test").write_text("x"),
        lambda: os.listdir("/"),
        lambda: os.path.isfile(os.devnull),
        lambda: Path(".").resolve(),
    ],
)
def test_the_file_system_is_out_of_reach(touch: Callable[[], object]) -> None:
    with pytest.raises(DiskTouched):
        touch()
