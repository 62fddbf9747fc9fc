"""Hovers over markers, each compared whole (the range it covers, then its markdown) with
a snapshot under `snapshots/hover/`."""

from mfls.features.diagnostics import document_diagnostics
from mfls.features.hover import hover
from tests.kit.course import course, course_text, expect, hover_text


def test_binding_hover_shows_exact_key_role_places_and_counts() -> None:
    made = course_text(
        """
        //- mfcourse.toml
        name = "Python"
        lessons = ["a.md", "b.md"]
        //- a.md
        # A

        ?[{{ $0goal }} Learn | Build | ...Other]
        //- b.md
        Use {{ goal }}.

        And {{ goal }} again.
        """
    )
    found = hover(made.snapshot, made.cursor_uri, made.offset)
    expect(hover_text(made, found), "hover/binding_places_and_counts.md")


def test_a_key_bound_in_a_reference_seven_times_lists_five_and_says_how_many_more() -> None:
    bindings = "".join(f"?[%{{{{ level }}}} A{n} | B]\n\n" for n in range(7))
    made = course(
        {
            "mfcourse.toml": 'lessons = ["lessons/*.md"]\nreferences = ["ref.md"]\n',
            "ref.md": bindings,
            "lessons/one.md": "At {{ level }}.\n",
        }
    )
    uri = made.uri("lessons/one.md")
    for language, name in (("en", "bound_in_references_and_more"), ("zh-CN", "zh_bound_in_refs")):
        found = hover(made.snapshot, uri, 5, language)
        expect(hover_text(made, found, "lessons/one.md"), f"hover/{name}.md")


def test_reference_hover_on_unbound_key() -> None:
    made = course_text("Use {{ goal }}$0.\n")
    expect(hover_text(made, hover(made.snapshot, made.cursor_uri, made.offset)), "hover/unbound.md")


def test_invisible_characters_are_named() -> None:
    key = "user  name\u00a0x\u200by\ufeffz\u2060w\u202e"
    made = course({"a.md": f"Use {{{{ {key} }}}}.\n"})
    expect(
        hover_text(made, hover(made.snapshot, made.uri("a.md"), 6), "a.md"), "hover/invisible.md"
    )


def test_plain_key_has_no_notes() -> None:
    made = course_text("Use {{ $0plain key }}.\n")
    found = hover(made.snapshot, made.cursor_uri, made.offset)
    expect(hover_text(made, found), "hover/plain_key.md")


def test_host_key_hover() -> None:
    made = course_text(
        """
        //- mfcourse.toml
        host = "ai-shifu"
        //- a.md
        Hi {{ $0sys_user_nickname }}
        """
    )
    # The host provides it: no "not bound" in the hover, no problem in the diagnostics.
    expect(
        hover_text(made, hover(made.snapshot, made.cursor_uri, made.offset)), "hover/host_key.md"
    )
    assert document_diagnostics(made.snapshot, made.cursor_uri) == []


def test_literal_and_legacy_roles() -> None:
    made = course_text("?[%{{ old }} A]\n\nSee `{{ $0old }}`.\n")
    uri = made.cursor_uri
    expect(hover_text(made, hover(made.snapshot, uri, 4)), "hover/legacy_binding.md")
    expect(hover_text(made, hover(made.snapshot, uri, made.offset)), "hover/code_span.md")


def test_invalid_marker_explains_why() -> None:
    made = course({"a.md": "A {{ }} B\n\nC {{ open ?[X|Y]\n"})
    uri = made.uri("a.md")
    expect(hover_text(made, hover(made.snapshot, uri, 3), "a.md"), "hover/empty_marker.md")
    at = made.offset_of("a.md", "{{ open")
    unclosed = hover(made.snapshot, uri, at + 1)
    expect(hover_text(made, unclosed, "a.md"), "hover/unclosed_marker.md")
    assert hover(made.snapshot, uri, at + 5) is None


def test_nothing_outside_markers() -> None:
    made = course({"a.md": "plain text {{ k }}\n"})
    assert hover(made.snapshot, made.uri("a.md"), 2) is None
    assert hover(made.snapshot, "file:///elsewhere.md", 0) is None


def test_under_an_old_target_a_new_form_binding_is_no_binding() -> None:
    made = course_text(
        """
        //- mfcourse.toml
        target = "markdown-flow-0.4"
        //- a.md
        ?[{{ goal }} A | B]

        ?[%{{ other }} C]
        """
    )
    uri, text = made.uri("a.md"), made.text("a.md")
    found = hover(made.snapshot, uri, text.index("goal"))
    expect(hover_text(made, found, "a.md"), "hover/new_form_under_old_target.md")
    legacy = hover(made.snapshot, uri, text.index("other"))
    expect(hover_text(made, legacy, "a.md"), "hover/legacy_form_under_old_target.md")
