"""Reading one inline text: markers, literal contexts and their boundaries."""

from __future__ import annotations

import pytest

from mfls.syntax.inline import InlineMode, InlineScan, scan_inline
from mfls.syntax.model import LiteralKind, Reason, Role

MD = InlineMode.MARKDOWN
HTML = InlineMode.HTML
LIT = InlineMode.LITERAL


def refs(scan: InlineScan) -> list[tuple[str, bool]]:
    """(key, literal) of every marker, in order."""
    return [(m.key, m.literal) for m in scan.markers]


def spans(text: str, scan: InlineScan) -> list[str]:
    return [text[m.start : m.end] for m in scan.markers]


def reasons(scan: InlineScan) -> list[tuple[int, int, Reason]]:
    return [(i.start, i.end, i.reason) for i in scan.invalid]


def literal_kinds(text: str, scan: InlineScan) -> list[tuple[LiteralKind, str]]:
    return [(lit.kind, text[lit.start : lit.end]) for lit in scan.literals]


# -- markers in surrounding text (rules 4-8) ------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("{{user_name}}", "user_name"),
        ("{{ name }}", "name"),
        ("{{user name}}", "user name"),
        ("{{user  name}}", "user  name"),
        ("{{What is your gender?}}", "What is your gender?"),
        ("{{🚀 rocket}}", "🚀 rocket"),
        ("{{a{b}c}}", "a{b}c"),
        ("{{ a} }}", "a}"),
        ("{{outer{{inner}}", "outer{{inner"),
        ('{{"name"}}', '"name"'),
        ("{{path\\}}", "path\\"),
        ("{{name[0]}}", "name[0]"),
        ("{{user.name}}", "user.name"),
        ("{{{a}}}", "{a"),
        ("{{ `code` }}", "`code`"),
        ("{{ <b>x</b> }}", "<b>x</b>"),
        ("{{ $x$ }}", "$x$"),
        ("{{ [a](b) }}", "[a](b)"),
    ],
)
def test_seed_table_and_atomic_bodies(text: str, key: str) -> None:
    scan = scan_inline(text, MD)
    assert refs(scan) == [(key, False)]
    marker = scan.markers[0]
    assert marker.start == 0
    assert text[marker.key_start : marker.key_end] == key
    assert marker.role is Role.REFERENCE and not marker.legacy
    assert scan.interactions == () and scan.invalid == ()


def test_marker_ends_at_first_closing_sequence() -> None:
    text = "{{a}}b}}"
    scan = scan_inline(text, MD)
    assert spans(text, scan) == ["{{a}}"]
    assert scan.invalid == ()
    text = "{{{a}}}"
    assert spans(text, scan_inline(text, MD)) == ["{{{a}}"]


def test_marker_ends_offsets() -> None:
    scan = scan_inline("x {{ key }} y", MD)
    m = scan.markers[0]
    assert (m.start, m.end, m.key_start, m.key_end) == (2, 11, 5, 8)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("\\{{a}}", []),
        ("\\\\{{a}}", ["a"]),
        ("\\\\\\{{a}}", []),
        ("\\{{{a}}", ["a"]),
        ("{\\{a}}", []),
        ("x\\{ {{a}}", ["a"]),
    ],
)
def test_backslash_escaped_opener(text: str, expected: list[str]) -> None:
    assert [m.key for m in scan_inline(text, MD).markers] == expected


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("{{}}", Reason.EMPTY),
        ("{{ }}", Reason.EMPTY),
        ("{{\n}}", Reason.EMPTY),
        ("{{a\nb}}", Reason.LINE_BREAK),
        ("{{a\r\nb}}", Reason.LINE_BREAK),
        ("{{a\rb}}", Reason.LINE_BREAK),
        ("{{a\x00b}}", Reason.CONTROL_CHARACTER),
        ("{{a\tb}}", Reason.CONTROL_CHARACTER),
        ("{{a\x7fb}}", Reason.CONTROL_CHARACTER),
        ("{{a\x01\nb}}", Reason.LINE_BREAK),
    ],
)
def test_invalid_markers(text: str, reason: Reason) -> None:
    scan = scan_inline(text, MD)
    assert scan.markers == ()
    assert reasons(scan) == [(0, len(text), reason)]


def test_line_breaks_as_edge_padding() -> None:
    for text in ["{{\n key \n}}", "{{\r\n key\r\n}}", "{{\rkey\r}}"]:
        assert refs(scan_inline(text, MD)) == [("key", False)]


def test_invalid_marker_is_atomic() -> None:
    text = "{{ a\x01 `x ?[A|B] }} `y` ?[C|D]"
    scan = scan_inline(text, MD)
    assert reasons(scan) == [(0, text.index("}}") + 2, Reason.CONTROL_CHARACTER)]
    assert literal_kinds(text, scan) == [(LiteralKind.CODE_SPAN, "`y`")]
    assert len(scan.interactions) == 1
    assert text[scan.interactions[0].start :] == "?[C|D]"


def test_invalid_marker_hides_no_nested_marker() -> None:
    scan = scan_inline("{{ {{a}}", MD)
    assert refs(scan) == [("{{a", False)]
    scan = scan_inline("{{ \n {{a}}", MD)
    assert refs(scan) == [("{{a", False)]
    scan = scan_inline("{{ x\n {{a}}", MD)
    assert reasons(scan) == [(0, 11, Reason.LINE_BREAK)]
    assert scan.markers == ()


def test_unclosed_marker_owns_the_rest() -> None:
    text = "a {{ open ?[A|B] `x` [y](z) ?[C] {{z"
    scan = scan_inline(text, MD)
    assert scan.markers == ()
    assert scan.interactions == ()
    assert scan.literals == ()
    (bad,) = scan.invalid
    assert (bad.start, bad.end, bad.reason) == (2, len(text), Reason.UNCLOSED)
    assert (bad.hidden_markers, bad.hidden_interactions) == (0, 2)


def test_unclosed_marker_counts_only_its_tail() -> None:
    scan = scan_inline("{{a}} {{ b", MD)
    assert refs(scan) == [("a", False)]
    (bad,) = scan.invalid
    assert (bad.start, bad.end, bad.hidden_markers, bad.hidden_interactions) == (6, 10, 0, 0)


def test_seed_marker_protects_controls() -> None:
    text = "{{ key ?[A|B] }}"
    scan = scan_inline(text, MD)
    assert refs(scan) == [("key ?[A|B]", False)]
    assert scan.interactions == ()


def test_percent_outside_interaction_is_text() -> None:
    scan = scan_inline("50%{{a}}", MD)
    (m,) = scan.markers
    assert (m.start, m.legacy, m.role) == (3, False, Role.REFERENCE)


def test_offsets_are_code_points() -> None:
    text = "🚀😀 𝄞{{ a }}"
    (m,) = scan_inline(text, MD).markers
    assert (m.start, m.end, m.key_start, m.key_end) == (4, 11, 7, 8)
    assert text[m.start : m.end] == "{{ a }}"


def test_marker_priority_over_markdown_inside_body() -> None:
    text = "{{ `a` }} and {{ <b> }} and {{ [x](y) }}"
    scan = scan_inline(text, MD)
    assert [k for k, _ in refs(scan)] == ["`a`", "<b>", "[x](y)"]
    assert scan.literals == ()


# -- inline literal contexts (rules 9-11, 18, 20, 24) -----------------------------------


def test_seed_code_span_example() -> None:
    text = "Show `{{` then ?[{{ q }} A|B]"
    scan = scan_inline(text, MD)
    assert [(m.key, m.role) for m in scan.markers] == [("q", Role.BINDING)]
    assert scan.invalid == ()
    assert len(scan.interactions) == 1
    assert literal_kinds(text, scan) == [(LiteralKind.CODE_SPAN, "`{{`")]


@pytest.mark.parametrize(
    ("text", "kind", "literal_text"),
    [
        ("a `{{x}}` b", LiteralKind.CODE_SPAN, "`{{x}}`"),
        ("a ``{{x}} ` y`` b", LiteralKind.CODE_SPAN, "``{{x}} ` y``"),
        ("a $$ {{x}} $$ b", LiteralKind.MATH, "$$ {{x}} $$"),
        ("a ${{x}}$ b", LiteralKind.MATH, "${{x}}$"),
        ("a <http://e.org/{{x}}> b", LiteralKind.AUTOLINK, "<http://e.org/{{x}}>"),
        ("a <{{x}}@example.com> b", LiteralKind.AUTOLINK, "<{{x}}@example.com>"),
        ('a <span title="{{x}}"> b', LiteralKind.RAW_HTML, '<span title="{{x}}">'),
        ("a <span\ntitle='{{x}}'/> b", LiteralKind.RAW_HTML, "<span\ntitle='{{x}}'/>"),
        ("a <!-- {{x}} --> b", LiteralKind.RAW_HTML, "<!-- {{x}} -->"),
        ("a <? {{x}} ?> b", LiteralKind.RAW_HTML, "<? {{x}} ?>"),
        ("a <!DOCTYPE {{x}}> b", LiteralKind.RAW_HTML, "<!DOCTYPE {{x}}>"),
        ("a <![CDATA[ {{x}} ]]> b", LiteralKind.RAW_HTML, "<![CDATA[ {{x}} ]]>"),
        ("a [t]({{x}}) b", LiteralKind.LINK_RESOURCE, "({{x}})"),
        ('a [t](/u "{{x}}") b', LiteralKind.LINK_RESOURCE, '(/u "{{x}}")'),
        ("a [t](/u '{{x}}') b", LiteralKind.LINK_RESOURCE, "(/u '{{x}}')"),
        ("a [t](/u ({{x}})) b", LiteralKind.LINK_RESOURCE, "(/u ({{x}}))"),
        ("a [t](<{{ x }}>) b", LiteralKind.LINK_RESOURCE, "(<{{ x }}>)"),
        ("a ![t]({{x}}) b", LiteralKind.LINK_RESOURCE, "({{x}})"),
        ("a [t](\n{{x}}\n) b", LiteralKind.LINK_RESOURCE, "(\n{{x}}\n)"),
        ("a [t][{{x}}] b", LiteralKind.LINK_LABEL, "[{{x}}]"),
        ("a [t][ {{ x }} ] b", LiteralKind.LINK_LABEL, "[ {{ x }} ]"),
    ],
)
def test_literal_contexts_report_literal_markers(
    text: str, kind: LiteralKind, literal_text: str
) -> None:
    scan = scan_inline(text, MD)
    assert refs(scan) == [("x", True)]
    assert scan.markers[0].role is Role.REFERENCE
    assert literal_kinds(text, scan) == [(kind, literal_text)]


@pytest.mark.parametrize(
    "text",
    [
        "`{{ }}` `{{a\nb}}` `{{x`",
        "<a title='{{}}'> <!-- {{ -->",
        "$$ {{ $$",
        "[t](<{{\x01}}>)",
        "<http://x/{{>",
    ],
)
def test_invalid_markers_in_literal_contexts_are_not_reported(text: str) -> None:
    scan = scan_inline(text, MD)
    assert scan.markers == () and scan.invalid == ()
    assert scan.literals


def test_unclosed_opener_cannot_leave_a_literal_context() -> None:
    text = "`{{` {{a}} <b title='{{'> ?[{{q}} A] $x{{$ {{c}}"
    scan = scan_inline(text, MD)
    assert [(m.key, m.role, m.literal) for m in scan.markers] == [
        ("a", Role.REFERENCE, False),
        ("q", Role.BINDING, False),
        ("c", Role.REFERENCE, False),
    ]
    assert scan.invalid == ()
    assert len(scan.interactions) == 1


def test_literal_contexts_are_read_independently() -> None:
    scan = scan_inline("`{{a}} {{b` `}} {{c}}`", MD)
    assert refs(scan) == [("a", True), ("c", True)]


def test_code_span_backtick_runs() -> None:
    text = "``a`{{x}}`` `` {{y}} `"
    scan = scan_inline(text, MD)
    assert literal_kinds(text, scan) == [(LiteralKind.CODE_SPAN, "``a`{{x}}``")]
    assert refs(scan) == [("x", True), ("y", False)]


@pytest.mark.parametrize("before", [0, 3, 12])
def test_code_span_closers_skip_longer_runs(before: int) -> None:
    text = "`p` " * before + "`a ``b`` {{x}}` ``c` {{y}}`` ``` {{z}}"
    scan = scan_inline(text, MD)
    spans = [text[lit.start : lit.end] for lit in scan.literals]
    assert spans == ["`p`"] * before + ["`a ``b`` {{x}}`", "``c` {{y}}``"]
    assert refs(scan) == [("x", True), ("y", True), ("z", False)]


def test_escaped_backtick_does_not_open_a_code_span() -> None:
    text = "\\`{{a}}`"
    scan = scan_inline(text, MD)
    assert refs(scan) == [("a", False)]
    assert scan.literals == ()


def test_code_span_wins_over_link() -> None:
    text = "[a `](b)` {{x}}"
    scan = scan_inline(text, MD)
    assert literal_kinds(text, scan) == [(LiteralKind.CODE_SPAN, "`](b)`")]
    assert refs(scan) == [("x", False)]


@pytest.mark.parametrize(
    ("text", "math"),
    [
        ("$a$", ["$a$"]),
        ("$ a$ {{x}}", []),
        ("$a $ {{x}}", []),
        ("$a$1 {{x}}", []),
        ("$a$1 b$", ["$a$1 b$"]),
        ("\\$a$ {{x}}", []),
        ("$a\\$ {{x}}", []),
        ("$a\\\\$", ["$a\\\\$"]),
        ("$$ {{x}}", []),
        ("$$ a $ {{x}}", []),
        ("$$a\\$$ {{x}}", []),
        ("$$a$$", ["$$a$$"]),
        ("$$$$", ["$$$$"]),
        ("$a\u3000$ {{x}}", []),
        ("$a\f$ {{x}}", []),
        ("$\ta$ {{x}}", []),
        ("$a\n$ {{x}}", []),
        ("$\u00a0a$ {{x}}", []),
        ("$\u200ba\u200b$", ["$\u200ba\u200b$"]),
    ],
)
def test_math_delimiters(text: str, math: list[str]) -> None:
    scan = scan_inline(text, MD)
    assert [text[lit.start : lit.end] for lit in scan.literals] == math
    if "{{x}}" in text and not math:
        assert refs(scan) == [("x", False)]


def test_unmatched_double_dollar_does_not_fall_back_to_single() -> None:
    text = "$${{x}}$ y"
    scan = scan_inline(text, MD)
    assert scan.literals == ()
    assert refs(scan) == [("x", False)]


@pytest.mark.parametrize(
    "text",
    [
        "<a title='{{x}}' {{y}}",
        "<a b='{{x}}'",
        "<a\n\ntitle='{{x}}'>",
        "<!-- {{x}}",
        "<? {{x}}",
        "<![CDATA[ {{x}}",
        "<http://a b{{x}}>",
        "</a {{x}}>",
    ],
)
def test_incomplete_html_is_not_a_literal_context(text: str) -> None:
    scan = scan_inline(text, MD)
    assert all(not m.literal for m in scan.markers)
    assert "x" in [m.key for m in scan.markers]
    assert all(lit.kind is not LiteralKind.RAW_HTML for lit in scan.literals)


def test_short_comments() -> None:
    text = "<!--> {{a}} <!---> {{b}}"
    scan = scan_inline(text, MD)
    assert literal_kinds(text, scan) == [
        (LiteralKind.RAW_HTML, "<!-->"),
        (LiteralKind.RAW_HTML, "<!--->"),
    ]
    assert refs(scan) == [("a", False), ("b", False)]


def test_closing_tag_is_literal() -> None:
    text = "</span > x"
    assert literal_kinds(text, scan_inline(text, MD)) == [(LiteralKind.RAW_HTML, "</span >")]


@pytest.mark.parametrize(
    "text",
    [
        "[t]({{ x }})",
        "[t](a b {{x}})",
        "[t](<a\nb> {{x}})",
        "[t](a (b {{x}})",
        '[t](/u "{{x}})',
        "[t] ({{x}})",
    ],
)
def test_invalid_link_resource_is_surrounding_text(text: str) -> None:
    scan = scan_inline(text, MD)
    assert refs(scan) == [("x", False)]
    assert all(lit.kind is not LiteralKind.LINK_RESOURCE for lit in scan.literals)


def test_link_text_is_ordinary_inline_text() -> None:
    text = "[{{a}} `c`](/u) ![{{b}}](/i)"
    scan = scan_inline(text, MD)
    assert refs(scan) == [("a", False), ("b", False)]
    assert [lit.kind for lit in scan.literals] == [
        LiteralKind.CODE_SPAN,
        LiteralKind.LINK_RESOURCE,
        LiteralKind.LINK_RESOURCE,
    ]


def test_balanced_parentheses_in_destination() -> None:
    text = "[t](a(b){{x}}) [u](a(b)c)"
    scan = scan_inline(text, MD)
    assert literal_kinds(text, scan) == [
        (LiteralKind.LINK_RESOURCE, "(a(b){{x}})"),
        (LiteralKind.LINK_RESOURCE, "(a(b)c)"),
    ]
    assert refs(scan) == [("x", True)]


def test_escapes_in_link_resource() -> None:
    text = '[t](/u "\\" {{x}}") [v](\\{{y}})'
    scan = scan_inline(text, MD)
    assert refs(scan) == [("x", True)]
    assert len(scan.literals) == 2


def test_no_links_in_links() -> None:
    text = "[a [b](c) d]({{x}})"
    scan = scan_inline(text, MD)
    assert literal_kinds(text, scan) == [(LiteralKind.LINK_RESOURCE, "(c)")]
    assert refs(scan) == [("x", False)]


def test_image_inside_link_keeps_the_link() -> None:
    text = "[![i](a)]({{x}})"
    scan = scan_inline(text, MD)
    assert refs(scan) == [("x", True)]


def test_reference_link_labels() -> None:
    text = "[x][{{a}}] [y][] {{b}} [z] {{c}} [w][a [b] {{d}}"
    scan = scan_inline(text, MD)
    assert refs(scan) == [("a", True), ("b", False), ("c", False), ("d", False)]
    assert literal_kinds(text, scan) == [(LiteralKind.LINK_LABEL, "[{{a}}]")]


def test_reference_label_does_not_deactivate_enclosing_link() -> None:
    text = "[a [x][y]]({{k}})"
    scan = scan_inline(text, MD)
    assert literal_kinds(text, scan) == [
        (LiteralKind.LINK_LABEL, "[y]"),
        (LiteralKind.LINK_RESOURCE, "({{k}})"),
    ]
    assert refs(scan) == [("k", True)]


def test_escaped_bracket_in_label() -> None:
    text = "[x][a\\]{{b}}]"
    scan = scan_inline(text, MD)
    assert refs(scan) == [("b", True)]


def test_unmatched_brackets() -> None:
    scan = scan_inline("] [ ]] [[ {{a}} ]", MD)
    assert refs(scan) == [("a", False)]


def test_nul_counts_as_replacement_character_for_structure() -> None:
    text = "[t](a\x00{{x}})"
    scan = scan_inline(text, MD)
    assert refs(scan) == [("x", True)]


# -- ordinary HTML blocks (rule 17) ----------------------------------------------------


def test_html_mode_reads_markers_between_tags() -> None:
    text = '<div title="{{a}}">\n{{b}} `{{c}}` \\{{d}} ?[{{q}} X|Y]\n<!-- {{e}} --></div>'
    scan = scan_inline(text, HTML)
    assert [(m.key, m.literal, m.role) for m in scan.markers] == [
        ("a", True, Role.REFERENCE),
        ("b", False, Role.REFERENCE),
        ("c", False, Role.REFERENCE),
        ("d", False, Role.REFERENCE),
        ("q", False, Role.BINDING),
        ("e", True, Role.REFERENCE),
    ]
    assert [lit.kind for lit in scan.literals] == [LiteralKind.RAW_HTML] * 3
    assert len(scan.interactions) == 1


def test_html_mode_has_no_links_math_or_autolinks() -> None:
    text = "<p>[t]({{a}}) ${{b}}$ <http://x/{{c}}> {{ }}</p>"
    scan = scan_inline(text, HTML)
    assert refs(scan) == [("a", False), ("b", False), ("c", False)]
    assert reasons(scan) == [(text.index("{{ }}"), text.index("{{ }}") + 5, Reason.EMPTY)]


def test_html_mode_unclosed() -> None:
    text = "<td>{{ a <b>?[X]"
    (bad,) = scan_inline(text, HTML).invalid
    assert (bad.start, bad.end, bad.reason) == (4, len(text), Reason.UNCLOSED)
    assert (bad.hidden_markers, bad.hidden_interactions) == (0, 1)


# -- whole-text literal contexts (info strings, link reference definitions) -------------


def test_literal_mode_reports_only_complete_valid_markers() -> None:
    text = "python {{a}} {{ }} \\{{b}} ?[{{c}} X] `{{d}}` {{e"
    scan = scan_inline(text, LIT)
    assert refs(scan) == [("a", True), ("c", True), ("d", True)]
    assert scan.invalid == () and scan.interactions == ()
    assert all(m.role is Role.REFERENCE for m in scan.markers)


def test_literal_mode_escaped_backslash() -> None:
    assert refs(scan_inline("\\\\{{a}}", LIT)) == [("a", True)]
