"""Interactions: boundaries, bindings, choices and input (rules 12-15, 18, 21, 22, 25)."""

from __future__ import annotations

import pytest

from mfls.syntax.inline import InlineMode, InlineScan, scan_inline
from mfls.syntax.interactions import split_body
from mfls.syntax.model import Interaction, LiteralKind, Reason, Role

MD = InlineMode.MARKDOWN


def one(text: str, mode: InlineMode = MD) -> tuple[Interaction, InlineScan]:
    scan = scan_inline(text, mode)
    assert len(scan.interactions) == 1, scan
    return scan.interactions[0], scan


def labels(x: Interaction) -> list[tuple[str, str]]:
    return [(c.label, c.value) for c in x.choices]


# -- the examples of docs/syntax.md ----------------------------------------------------------------


def test_seed_binding_with_input() -> None:
    text = "?[{{ What would you like to learn? }} Python | JavaScript | ...Another topic]"
    x, scan = one(text)
    assert (x.start, x.end) == (0, len(text))
    assert x.binding == "What would you like to learn?"
    assert not x.multiple
    assert labels(x) == [("Python", "Python"), ("JavaScript", "JavaScript")]
    assert x.input == "Another topic"
    (m,) = scan.markers
    assert m.role is Role.BINDING and not m.legacy and not m.literal
    assert x.binding_marker == m
    assert text[m.start : m.end] == "{{ What would you like to learn? }}"


def test_seed_operators_inside_binding_are_atomic() -> None:
    text = "?[{{ Which [path] | level//hint...? }} Concepts//concepts | Examples//examples]"
    x, _scan = one(text)
    assert x.binding == "Which [path] | level//hint...?"
    assert labels(x) == [("Concepts", "concepts"), ("Examples", "examples")]
    assert x.input is None
    assert x.end == len(text)


def test_seed_plain_interactions() -> None:
    x, scan = one("?[Option A | Option B]")
    assert x.binding is None and scan.markers == ()
    assert labels(x) == [("Option A", "Option A"), ("Option B", "Option B")]
    x, _ = one("?[...input hint]")
    assert x.choices == () and x.input == "input hint"


def test_marker_inside_option_is_a_reference() -> None:
    text = "?[A {{x}} | B]"
    x, scan = one(text)
    assert x.binding is None
    assert [(m.key, m.role) for m in scan.markers] == [("x", Role.REFERENCE)]
    assert labels(x) == [("A {{x}}", "A {{x}}"), ("B", "B")]


def test_only_the_first_leading_marker_binds() -> None:
    x, scan = one("?[{{a}} {{b}} X|Y]")
    assert x.binding == "a"
    assert [(m.key, m.role) for m in scan.markers] == [("a", Role.BINDING), ("b", Role.REFERENCE)]
    assert labels(x) == [("{{b}} X", "{{b}} X"), ("Y", "Y")]


def test_binding_after_whitespace_padding() -> None:
    text = "?[ \u3000\n {{ q }}A|B]"
    x, scan = one(text)
    assert x.binding == "q"
    assert scan.markers[0].start == text.index("{{")
    assert labels(x) == [("A", "A"), ("B", "B")]


def test_text_before_marker_prevents_binding() -> None:
    x, scan = one("?[x {{q}} A|B]")
    assert x.binding is None
    assert scan.markers[0].role is Role.REFERENCE


# -- legacy bindings (rules 14, 22) -------------------------------------------------------


def test_legacy_binding() -> None:
    text = "?[%{{ name }} A|B]"
    x, scan = one(text)
    (m,) = scan.markers
    assert (m.start, m.end, m.key, m.role, m.legacy) == (2, 13, "name", Role.BINDING, True)
    assert (m.key_start, m.key_end) == (6, 10)
    assert x.binding == "name"
    assert labels(x) == [("A", "A"), ("B", "B")]


def test_invalid_legacy_binding_excludes_percent() -> None:
    text = "?[ %{{}} A|B]"
    x, scan = one(text)
    assert x.binding is None and scan.markers == ()
    (bad,) = scan.invalid
    assert (bad.start, bad.end, bad.reason) == (4, 8, Reason.EMPTY)
    assert labels(x) == [("%{{}} A", "%{{}} A"), ("B", "B")]


def test_percent_marker_after_text_is_not_legacy() -> None:
    x, scan = one("?[a %{{q}}|b]")
    (m,) = scan.markers
    assert (m.start, m.legacy, m.role) == (5, False, Role.REFERENCE)
    assert x.binding is None


def test_invalid_leading_marker_binds_nothing() -> None:
    text = "?[{{ }} A|{{a\nb}}]"
    x, scan = one(text)
    assert x.binding is None
    assert [i.reason for i in scan.invalid] == [Reason.EMPTY, Reason.LINE_BREAK]
    assert labels(x) == [("{{ }} A", "{{ }} A"), ("{{a\nb}}", "{{a\nb}}")]


# -- boundaries (rules 12, 13, 18, 25) ----------------------------------------------------


@pytest.mark.parametrize(
    ("text", "end"),
    [
        ("?[A|B] tail", 6),
        ("?[A [b] c]", 7),
        ("?[{{ a ] b }} X]", 16),
        ("?[A\nB|C]", 8),
        ("?[A `]` B]", 6),
        ("?[A\\]B]", 5),
        ("?[A] (x)", 4),
        ("?[]", 3),
    ],
)
def test_interaction_closes_at_first_bracket_outside_markers(text: str, end: int) -> None:
    x, _ = one(text)
    assert (x.start, x.end) == (0, end)


@pytest.mark.parametrize(
    "text",
    [
        "?[A|B",
        "?[A](x)",
        "?[A](not a link",
        "?[A](",
        "?[{{ q A|B]",
        "\\?[A|B]",
        "`?[A|B]`",
        "{{ ?[A|B] }}",
        "<a title='?[A|B]'>",
    ],
)
def test_not_an_interaction(text: str) -> None:
    assert scan_inline(text, MD).interactions == ()


def test_cancelled_interaction_leaves_a_link() -> None:
    text = "?[A]({{x}})"
    scan = scan_inline(text, MD)
    assert scan.interactions == ()
    assert [lit.kind for lit in scan.literals] == [LiteralKind.LINK_RESOURCE]
    assert [(m.key, m.literal) for m in scan.markers] == [("x", True)]


def test_unclosed_marker_inside_interaction() -> None:
    text = "?[{{ q A|B] more"
    scan = scan_inline(text, MD)
    assert scan.interactions == ()
    (bad,) = scan.invalid
    assert (bad.start, bad.end, bad.reason) == (2, len(text), Reason.UNCLOSED)


def test_escaped_brace_inside_interaction() -> None:
    x, scan = one("?[\\{{a}} X|Y]")
    assert scan.markers == () and x.binding is None
    assert labels(x) == [("\\{{a}} X", "\\{{a}} X"), ("Y", "Y")]
    x, scan = one("?[\\\\{{a}} X|Y]")
    assert [m.key for m in scan.markers] == ["a"]
    assert x.binding is None


def test_escapes_do_not_apply_in_html_interactions() -> None:
    _x, scan = one("?[\\{{a}} X|Y]", InlineMode.HTML)
    assert [m.key for m in scan.markers] == ["a"]


def test_interaction_inside_link_text() -> None:
    text = "[see ?[A|B]]({{x}})"
    x, scan = one(text)
    assert (x.start, x.end) == (5, 11)
    assert [(m.key, m.literal) for m in scan.markers] == [("x", True)]


def test_interaction_wins_over_code_span_starting_inside() -> None:
    text = "?[A `|` B] `{{x}}`"
    x, scan = one(text)
    assert labels(x) == [("A `", "A `"), ("` B", "` B")]
    assert [(m.key, m.literal) for m in scan.markers] == [("x", True)]


def test_interaction_offsets_in_longer_text() -> None:
    text = "🚀 Pick: ?[{{k}} One // 1 | Two] done"
    x, _scan = one(text)
    assert text[x.start : x.end] == "?[{{k}} One // 1 | Two]"
    assert [(text[c.start : c.end], c.label, c.value) for c in x.choices] == [
        ("One // 1", "One", " 1"),
        ("Two", "Two", "Two"),
    ]


def test_many_interactions() -> None:
    scan = scan_inline("?[A] ?[B] x ?[{{c}} C|D]", MD)
    assert [x.binding for x in scan.interactions] == [None, None, "c"]


# -- splitting (rules 15, 21) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "multiple", "choices", "hint"),
    [
        ("A|B", False, [("A", "A"), ("B", "B")], None),
        (" A | B ", False, [("A", "A"), ("B", "B")], None),
        ("A||B", True, [("A", "A"), ("B", "B")], None),
        ("A|||B", True, [("A", "A"), ("|B", "|B")], None),
        ("A||B|C", True, [("A", "A"), ("B|C", "B|C")], None),
        ("A|B||C", False, [("A", "A"), ("B||C", "B||C")], None),
        ("A|B|||C", False, [("A", "A"), ("B|||C", "B|||C")], None),
        ("A||", True, [("A", "A")], None),
        ("|A|", False, [("A", "A")], None),
        ("| |", False, [], None),
        ("", False, [], None),
        ("A", False, [("A", "A")], None),
        ("A//a|B//b", False, [("A", "a"), ("B", "b")], None),
        ("A // a b | B", False, [("A", " a b"), ("B", "B")], None),
        ("//v|A//", False, [("", "v"), ("A", "")], None),
        ("A//b//c", False, [("A", "b//c")], None),
        ("A|B|...", False, [("A", "A"), ("B", "B")], ""),
        ("...", False, [], ""),
        ("... hint ", False, [], "hint"),
        ("A|...hint|x...y", False, [("A", "A")], "hint|x...y"),
        ("....x", False, [], ".x"),
        ("A//a...b", False, [("A", "a")], "b"),
        ("A\nB|C\r\n", False, [("A\nB", "A\nB"), ("C", "C")], None),
        ("\u3000A\u00a0|\u2003B", False, [("A", "A"), ("B", "B")], None),
        ("\ufeffA|B", False, [("\ufeffA", "\ufeffA"), ("B", "B")], None),
        ("A|| ...B", True, [("A", "A")], "B"),
    ],
)
def test_split_body(
    body: str, multiple: bool, choices: list[tuple[str, str]], hint: str | None
) -> None:
    split = split_body(body, 0, len(body))
    assert split.multiple == multiple
    assert [(c.label, c.value) for c in split.choices] == choices
    assert split.input == hint
    x, _ = one(f"?[{body}]")
    assert (x.multiple, labels(x), x.input) == (multiple, choices, hint)


def test_split_ignores_separators_inside_markers() -> None:
    body = "{{a|b}} X || {{c...d}} Y//{{e//f}}"
    split = split_body(body, 0, len(body), [(0, 7), (13, 22), (26, 34)])
    assert split.multiple
    assert [(c.label, c.value) for c in split.choices] == [
        ("{{a|b}} X", "{{a|b}} X"),
        ("{{c...d}} Y", "{{e//f}}"),
    ]
    assert split.input is None


def test_split_offsets() -> None:
    body = "xx A // a | B yy"
    split = split_body(body, 2, 14, base=100)
    assert [(c.start, c.end) for c in split.choices] == [(103, 109), (112, 113)]


def test_separators_inside_invalid_markers_are_atomic() -> None:
    x, scan = one("?[{{a|\x01}} X|Y]")
    assert labels(x) == [("{{a|\x01}} X", "{{a|\x01}} X"), ("Y", "Y")]
    assert [i.reason for i in scan.invalid] == [Reason.CONTROL_CHARACTER]
