"""The language as AI-Shifu authors write it now, in process: an interaction without a
variable (hover: stored nowhere, the answer goes to the conversation), the gate values
`_sys_pay` and `_sys_login` (completion after `//`, hover, `unknown-gate-value`), and
fixed output inside a line (`===text===`, `!===text!===`: tokens and hover). What each
hover says of the runtime is checked against markdown-flow 0.4.2 and ai-shifu's source in
tests/hosts/test_ai_shifu_constructs_sdk.py."""

from __future__ import annotations

from tests.kit.course import expect
from tests.kit.memory_client import CourseClient, check_diagnostics, render_completion, render_hover

COURSE = """\
//- mfcourse.toml
host = "ai-shifu"
"""


def hover_at(lesson: str) -> tuple[CourseClient, str]:
    course = CourseClient(COURSE + "//- 01.md\n" + lesson)
    found = course.call("textDocument/hover", course.at())
    return course, render_hover(found)


def test_an_interaction_without_a_variable_stores_nothing() -> None:
    course, shown = hover_at("Ready?\n\n?[Con$0tinue]\n")
    expect(course.relative(shown), "hover/no_variable.md")
    for lesson in ("?[A$0 || B]\n", "?[...Your$0 thoughts]\n", "?[A | B | ...Ot$0her]\n"):
        _, shown = hover_at(lesson)
        assert "the answer is stored nowhere" in shown and "to the conversation" in shown


def test_an_interaction_with_a_variable_gets_no_such_hover() -> None:
    _, shown = hover_at("?[%{{level}} Ea$0sy | Hard]\n")
    assert shown == "no hover"


def test_gate_values_are_completed_after_the_slashes() -> None:
    course = CourseClient(COURSE + "//- 01.md\nPay to go on.\n\n?[Pay now//_sys$0]\n")
    found = course.call("textDocument/completion", course.at())
    expect(render_completion(found), "completion/gate_values.txt")
    label = CourseClient(COURSE + "//- 01.md\n?[Pay$0 now//_sys_pay]\n")
    plain = CourseClient('//- mfcourse.toml\nname = "x"\n//- 01.md\n?[P//$0]\n')
    for elsewhere in (label, plain):
        found = elsewhere.call("textDocument/completion", elsewhere.at()) or {"items": []}
        assert "_sys_pay" not in [item["label"] for item in found["items"]]


def test_a_gate_value_has_a_hover_and_a_wrong_one_a_warning() -> None:
    course = check_diagnostics(
        """
        //- mfcourse.toml
        host = "ai-shifu"
        //- 01.md
        ?[Later//_sys_later | Pay now//_sys_p$0ay | Log in//_sys_login]
        %%       ^^^^^^^^^^ unknown-gate-value: “_sys_later” gates nothing
        ?[Pay//_sys_pay | _sys_login | _sys_Pay]
        %%                             ^^^^^^^^ unknown-gate-value: “_sys_Pay” gates nothing
        """,
    )
    expect(
        course.relative(render_hover(course.call("textDocument/hover", course.at()))),
        "hover/gate_pay.md",
    )


def test_a_spaced_gate_value_is_shown_with_its_spaces() -> None:
    """` _sys_pay` gates nothing (ai-shifu compares values exactly): the hover shows the
    value as written, as the warning does, not the gate it looks like."""
    lesson = '//- mfcourse.toml\nhost = "ai-shifu"\n//- 01.md\n?[Pay now// _sys_p$0ay | Later]\n'
    course = CourseClient(lesson)
    shown = render_hover(course.call("textDocument/hover", course.at()))
    assert "` _sys_pay` is no AI-Shifu gate" in shown, shown


def test_gate_values_are_checked_only_on_ai_shifu() -> None:
    check_diagnostics(
        """
        //- mfcourse.toml
        name = "Elsewhere"
        //- 01.md
        ?[Later//_sys_later]
        """,
    )


def test_fixed_output_inside_a_line_has_tokens_and_a_hover() -> None:
    course, shown = hover_at("Then say ===Welc$0ome, {{name}}=== and go on.\n")
    expect(course.relative(shown), "hover/fixed_in_line.md")
    _, bang = hover_at("Then say !===Welc$0ome!=== and go on.\n")
    assert "`!===text!===` inside a line" in bang and "translate it" in bang
    _, alone = hover_at("Intro\n\n---\n\n===Welc$0ome===\n")
    assert "never translated" in alone
    data = course.call(
        "textDocument/semanticTokens/full", {"textDocument": {"uri": course.uri("01.md")}}
    )["data"]
    legend = course.initialized["capabilities"]["semanticTokensProvider"]["legend"]
    spans = []
    char = 0
    for i in range(0, len(data), 5):
        char += data[i + 1]
        kind = legend["tokenTypes"][data[i + 3]]
        fixed = bool(data[i + 4] & 1 << legend["tokenModifiers"].index("fixed"))
        spans.append((char, data[i + 2], kind, fixed))
    # "Then say " | "===Welcome, " | {{name}} | "===" | " and go on."
    assert spans == [(9, 12, "string", False), (21, 8, "variable", True), (29, 3, "string", False)]
