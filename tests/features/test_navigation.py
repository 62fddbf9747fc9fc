"""Definition, references and highlights, on course texts: what each answer covers is
written under the lines it covers (the n-th link's target, selection and origin as `n
target`, `n selection`, `n origin`)."""

from collections.abc import Iterable

from mfls.features.navigation import (
    Highlight,
    Location,
    LocationLink,
    definition,
    highlights,
    references,
)
from tests.kit.course import Course, Mark, course_text

COURSE = """
    //- mfcourse.toml
    lessons = ["a.md", "b.md"]
    //- a.md
    ?[{{ goal }} A | B]

    Use {{ goal }} and {{ other }}.
    //- b.md
    Again {{ goal }}, `{{ goal }}`.

    ?[%{{ goal }} C]
    """


def link_marks(course: Course, links: Iterable[LocationLink]) -> list[Mark]:
    origin = course.cursor_name or ""
    marks: list[Mark] = []
    for n, link in enumerate(links):
        name = course.name_of(link.uri)
        marks += [
            (name, link.target_start, link.target_end, f"{n} target"),
            (name, link.selection_start, link.selection_end, f"{n} selection"),
            (origin, link.origin_start, link.origin_end, f"{n} origin"),
        ]
    return marks


def location_marks(course: Course, found: Iterable[Location], label: str) -> list[Mark]:
    return [(course.name_of(f.uri), f.start, f.end, f"{n} {label}") for n, f in enumerate(found)]


def highlight_marks(course: Course, found: Iterable[Highlight]) -> list[Mark]:
    name = course.cursor_name or ""
    return [(name, h.start, h.end, f"{n} {h.kind}") for n, h in enumerate(found)]


def test_definition_from_a_reference_lists_binding_interactions() -> None:
    course = course_text(
        """
        //- mfcourse.toml
        lessons = ["a.md", "b.md"]
        //- a.md
        ?[{{ goal }} A | B]
        ^^^^^^^^^^^^^^^^^^^ %% 0 target
        %%   ^^^^ 0 selection

        Use {{ goal }} and {{ other }}.
        //- b.md
        Again {{ $0goal }}, `{{ goal }}`.
        %%    ^^^^^^^^^^^^ 0 origin
        %%    ^^^^^^^^^^^^ 1 origin

        ?[%{{ goal }} C]
        ^^^^^^^^^^^^^^^^ %% 1 target
        %%    ^^^^ 1 selection
        """
    )
    found = definition(course.snapshot, course.cursor_uri, course.offset)
    course.check(link_marks(course, found))


def test_definition_from_a_literal_marker_and_nowhere() -> None:
    course = course_text(COURSE.replace("`{{ goal }}`", "`{{ $0goal }}`"))
    uri = course.uri("b.md")
    assert len(definition(course.snapshot, uri, course.offset)) == 2
    assert definition(course.snapshot, uri, 0) == []
    assert definition(course.snapshot, course.uri("a.md"), course.offset_of("a.md", "other")) == []


def test_references_with_and_without_declaration() -> None:
    course = course_text(
        """
        //- mfcourse.toml
        lessons = ["a.md", "b.md"]
        //- a.md
        ?[{{ $0goal }} A | B]
        %%   ^^^^^^ 0 reference

        Use {{ goal }} and {{ other }}.
        %%     ^^^^ 1 reference
        //- b.md
        Again {{ goal }}, `{{ goal }}`.
        %%       ^^^^ 2 reference
        %%                    ^^^^ 3 reference

        ?[%{{ goal }} C]
        %%    ^^^^ 4 reference
        """
    )
    every = references(course.snapshot, course.cursor_uri, course.offset, include_declaration=True)
    course.check(location_marks(course, every, "reference"))
    reads = references(course.snapshot, course.cursor_uri, course.offset, include_declaration=False)
    assert reads == [every[1], every[2], every[3]]


def test_highlights_mark_bindings_as_writes() -> None:
    course = course_text(
        """
        //- b.md
        Again {{ $0goal }}, `{{ goal }}`.
        %%       ^^^^^^ 0 read
        %%                      ^^^^ 1 read

        ?[%{{ goal }} C]
        %%    ^^^^ 2 write
        """
    )
    found = highlights(course.snapshot, course.cursor_uri, course.offset)
    course.check(highlight_marks(course, found))


def test_navigation_stays_inside_the_course() -> None:
    course = course_text(
        """
        //- one/a.md
        ?[{{ goal }} A]
        //- two/b.md
        {{ $0goal }}
        %%   ^^^^ 0 reference
        """,
        folders=["one", "two"],
    )
    assert definition(course.snapshot, course.cursor_uri, course.offset) == []
    found = references(course.snapshot, course.cursor_uri, course.offset)
    course.check(location_marks(course, found, "reference"))


def test_under_an_old_target_a_new_form_binding_is_highlighted_as_a_read() -> None:
    course = course_text(
        """
        //- mfcourse.toml
        target = "markdown-flow-0.4"
        //- a.md
        ?[{{ $0goal }} A]
        %%     ^^^^ 0 read

        ?[%{{ goal }} B]
        %%    ^^^^ 1 write

        {{ goal }}
        %% ^^^^ 2 read
        """
    )
    found = highlights(course.snapshot, course.cursor_uri, course.offset)
    course.check(highlight_marks(course, found))
    text = course.text("a.md")
    links = definition(course.snapshot, course.cursor_uri, text.rindex("goal"))
    assert [text[link.target_start : link.target_end] for link in links] == ["?[%{{ goal }} B]"]
