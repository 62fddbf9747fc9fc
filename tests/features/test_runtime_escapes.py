"""The delimiter escapes of markdown-flow 0.3.4 and 0.4.2 in what an author sees: under
those targets an option's `\\|`, `\\]`, `\\/` and `\\.` are text (hover, the course map's
choices, navigation), under `markdown-flow-0.3` (0.3.1) and `current` (docs/syntax.md
rule 18) they are not. tests/hosts/test_runtime_targets.py checks the same readings
against the released SDKs."""

from __future__ import annotations

import pytest

from mfls.features.completion import complete
from mfls.features.course_map import course_map
from mfls.features.hover import hover
from mfls.features.semantic_tokens import OPERATOR, tokens
from mfls.workspace.runtime_interactions import runtime_interactions, unescape
from tests.kit.course import course as make_course
from tests.kit.course import course_text, dedent, expect, hover_text

ESCAPING = ["markdown-flow-0.3.4", "markdown-flow-0.4"]
PLAIN = ["markdown-flow-0.3", "current"]
TEXT = "?[%{{ q }} A\\|B | x\\]y | $\\pi$ | C\\/D//v]\n\nUse {{ q }}.\n"


def choices_on_map(target: str, text: str = TEXT) -> tuple[str, ...]:
    course = make_course({"a.md": text}, config=f'host = "ai-shifu"\ntarget = "{target}"\n')
    keys = course_map(course.snapshot.courses["/course"]).keys
    [lane] = [k for k in keys if k.key == "q"]
    return lane.places[0].choices


@pytest.mark.parametrize("target", ESCAPING)
def test_the_course_map_shows_the_choices_the_runtime_shows(target: str) -> None:
    assert choices_on_map(target) == ("A|B", "x]y", "$\\pi$", "C/D")


@pytest.mark.parametrize("target", PLAIN)
def test_without_escapes_a_backslash_is_text_and_the_bracket_closes(target: str) -> None:
    assert choices_on_map(target) == ("A\\", "B", "x\\")


def test_the_production_default_of_ai_shifu_reads_escapes() -> None:
    course = make_course({"a.md": TEXT}, config='host = "ai-shifu"\n')
    keys = course_map(course.snapshot.courses["/course"]).keys
    [lane] = [k for k in keys if k.key == "q"]
    assert lane.places[0].choices == ("A|B", "x]y", "$\\pi$", "C/D")


@pytest.mark.parametrize(("target", "shown"), [(ESCAPING[0], "escaping"), (PLAIN[0], "plain")])
def test_the_hover_on_the_binding_lists_the_runtime_choices(target: str, shown: str) -> None:
    course = make_course({"a.md": TEXT}, config=f'target = "{target}"\n')
    info = hover(course.snapshot, course.uri("a.md"), TEXT.index("q"))
    expect(hover_text(course, info, "a.md"), f"hover/choices_{shown}.md")


def test_the_interaction_extends_past_an_escaped_bracket() -> None:
    course = make_course({"a.md": TEXT}, config='target = "markdown-flow-0.3.4"\n')
    entry = course.snapshot.entry(course.uri("a.md"))[1]
    [interaction] = entry.interactions
    assert TEXT[interaction.start : interaction.end] == TEXT.split("\n")[0]
    kinds = [op.kind for op in interaction.operators]
    assert kinds == ["?[", "|", "|", "|", "//", "]"]
    # The scanner's own reading (rule 18) is untouched.
    [scanned] = entry.marker_scan.interactions
    assert TEXT[scanned.start : scanned.end] == "?[%{{ q }} A\\|B | x\\]"


def test_a_bar_after_an_escaped_bar_splits_nothing() -> None:
    text = "?[%{{ q }} \\||A]\n"
    assert choices_on_map("markdown-flow-0.3.4", text) == ("||A",)
    assert choices_on_map("markdown-flow-0.3", text) == ("\\", "A")


def test_an_interaction_whose_every_bracket_is_escaped_keeps_the_scanner_reading() -> None:
    text = "?[%{{ q }} a\\]\n"
    course = make_course({"a.md": text}, config='target = "markdown-flow-0.3.4"\n')
    entry = course.snapshot.entry(course.uri("a.md"))[1]
    assert entry.interactions == entry.marker_scan.interactions


def test_escapes_in_the_input_hint_are_resolved() -> None:
    course = make_course(
        {"a.md": "?[%{{ q }} A | ...a\\|b\\]c]\n"}, config='target = "markdown-flow-0.4"\n'
    )
    [interaction] = course.snapshot.entry(course.uri("a.md"))[1].interactions
    assert interaction.input == "a|b]c" and [c.label for c in interaction.choices] == ["A"]


def test_completion_inside_an_option_after_an_escaped_bracket() -> None:
    text = "?[%{{ name }} A | x\\]y {{ na | C]\n"
    course = make_course({"a.md": text}, config='target = "markdown-flow-0.3.4"\n')
    result = complete(course.snapshot, course.uri("a.md"), text.index("na |") + 2)
    assert result is not None and [item.key for item in result.items] == ["name"]


def test_unescape_keeps_every_other_backslash() -> None:
    assert unescape("a\\|b\\]c\\/d\\.e") == "a|b]c/d.e"
    assert unescape("$\\pi$ \\\\ \\beta") == "$\\pi$ \\\\ \\beta"
    assert runtime_interactions("x", (), (), "markdown-flow-0.3") == ()


@pytest.mark.parametrize(
    ("target", "operators"),
    [
        (
            "markdown-flow-0.3.4",
            r"""
            ?[%{{ q }} A\|B | x\]y]
            ^^ %% operator
            %%              ^ operator
            %%                    ^ operator
            """,
        ),
        (
            "current",
            r"""
            ?[%{{ q }} A\|B | x\]y]
            ^^ %% operator
            %%           ^ operator
            %%              ^ operator
            %%                  ^ operator
            """,
        ),
    ],
)
def test_operator_tokens_follow_the_target(target: str, operators: str) -> None:
    course = course_text(f'//- mfcourse.toml\ntarget = "{target}"\n//- a.md\n' + dedent(operators))
    found = tokens(course.snapshot, course.uri("a.md"))
    course.check(
        ("a.md", t.start, t.start + t.length, "operator") for t in found if t.type == OPERATOR
    )
