import pytest
from course_kit import Course
from course_kit import course as make_course

from mfls.features.navigation import definition, highlights, references


@pytest.fixture
def course() -> Course:
    return make_course(
        "a.md",
        "?[{{ goal }} A | B]\n\nUse {{ goal }} and {{ other }}.\n",
        "b.md",
        "Again {{ goal }}, `{{ goal }}`.\n\n?[%{{ goal }} C]\n",
        config='lessons = ["a.md", "b.md"]\n',
    )


def text_of(course: Course, name: str) -> str:
    return course.snapshot.entry(course.uri(name))[1].text


def test_definition_from_a_reference_lists_binding_interactions(course: Course) -> None:
    at = course.offset_of("b.md", "goal")
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
    assert len(definition(course.snapshot, uri, course.offset_of("b.md", "`{{", 4))) == 2
    assert definition(course.snapshot, uri, 0) == []
    assert definition(course.snapshot, course.uri("a.md"), course.offset_of("a.md", "other")) == []


def test_references_with_and_without_declaration(course: Course) -> None:
    uri = course.uri("a.md")
    at = course.offset_of("a.md", "goal")
    every = references(course.snapshot, uri, at, include_declaration=True)
    assert len(every) == 5
    assert [loc.uri for loc in every] == [course.uri("a.md")] * 2 + [course.uri("b.md")] * 3
    for loc in every:
        assert text_of(course, loc.uri.rsplit("/", 1)[1])[loc.start : loc.end] == "goal"
    reads = references(course.snapshot, uri, at, include_declaration=False)
    assert len(reads) == 3


def test_highlights_mark_bindings_as_writes(course: Course) -> None:
    found = highlights(course.snapshot, course.uri("b.md"), course.offset_of("b.md", "goal"))
    assert [h.kind for h in found] == ["read", "read", "write"]


def test_navigation_stays_inside_the_course() -> None:
    course = make_course(
        "one/a.md", "?[{{ goal }} A]\n", "two/b.md", "{{ goal }}\n", folders=["one", "two"]
    )
    uri = course.uri("two/b.md")
    assert definition(course.snapshot, uri, 4) == []
    assert len(references(course.snapshot, uri, 4)) == 1


def test_under_an_old_target_a_new_form_binding_is_highlighted_as_a_read() -> None:
    text = "?[{{ goal }} A]\n\n?[%{{ goal }} B]\n\n{{ goal }}\n"
    course = make_course({"a.md": text}, config='target = "markdown-flow-0.4"\n')
    found = highlights(course.snapshot, course.uri("a.md"), course.offset_of("a.md", "goal"))
    assert [h.kind for h in found] == ["read", "write", "read"]
    links = definition(course.snapshot, course.uri("a.md"), text.rindex("goal"))
    assert [text[link.target_start : link.target_end] for link in links] == ["?[%{{ goal }} B]"]
