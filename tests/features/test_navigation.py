from pathlib import Path

import pytest
from course_kit import Course

from mfls.features.navigation import definition, highlights, references


@pytest.fixture
def course(tmp_path: Path) -> Course:
    return Course(
        tmp_path,
        {
            "mfcourse.toml": 'lessons = ["a.md", "b.md"]\n',
            "a.md": "?[{{ goal }} A | B]\n\nUse {{ goal }} and {{ other }}.\n",
            "b.md": "Again {{ goal }}, `{{ goal }}`.\n\n?[%{{ goal }} C]\n",
        },
    )


def text_of(course: Course, name: str) -> str:
    return course.snapshot.entry(course.uri(name))[1].text


def test_definition_from_a_reference_lists_binding_interactions(course: Course) -> None:
    at = course.offset("b.md", "goal")
    links = definition(course.snapshot, course.uri("b.md"), at)
    assert [link.uri for link in links] == [course.uri("a.md"), course.uri("b.md")]
    first = links[0]
    a = text_of(course, "a.md")
    assert a[first.target_start : first.target_end] == "?[{{ goal }} A | B]"
    assert a[first.selection_start : first.selection_end] == "goal"
    b = text_of(course, "b.md")
    assert b[first.origin_start : first.origin_end] == "{{ goal }}"
    assert b[links[1].target_start : links[1].target_end] == "?[%{{ goal }} C]"


def test_definition_from_a_literal_marker_and_nowhere(course: Course) -> None:
    uri = course.uri("b.md")
    assert len(definition(course.snapshot, uri, course.offset("b.md", "`{{", 4))) == 2
    assert definition(course.snapshot, uri, 0) == []
    assert definition(course.snapshot, course.uri("a.md"), course.offset("a.md", "other")) == []


def test_references_with_and_without_declaration(course: Course) -> None:
    uri = course.uri("a.md")
    at = course.offset("a.md", "goal")
    every = references(course.snapshot, uri, at, include_declaration=True)
    assert len(every) == 5
    assert [loc.uri for loc in every] == [course.uri("a.md")] * 2 + [course.uri("b.md")] * 3
    for loc in every:
        assert text_of(course, loc.uri.rsplit("/", 1)[1])[loc.start : loc.end] == "goal"
    reads = references(course.snapshot, uri, at, include_declaration=False)
    assert len(reads) == 3


def test_highlights_mark_bindings_as_writes(course: Course) -> None:
    found = highlights(course.snapshot, course.uri("b.md"), course.offset("b.md", "goal"))
    assert [h.kind for h in found] == ["read", "read", "write"]


def test_navigation_stays_inside_the_course(tmp_path: Path) -> None:
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    (tmp_path / "one" / "a.md").write_text("?[{{ goal }} A]\n")
    (tmp_path / "two" / "b.md").write_text("{{ goal }}\n")
    course = Course(tmp_path, {})
    course.workspace.set_folders([str(tmp_path / "one"), str(tmp_path / "two")])
    course.workspace.index_all()
    uri = course.uri("two/b.md")
    assert definition(course.snapshot, uri, 4) == []
    assert len(references(course.snapshot, uri, 4)) == 1
