from mfls.features.semantic_tokens import (
    BINDING,
    INVALID,
    LEGACY,
    LITERAL,
    MARKER,
    OPERATOR,
    READONLY,
    TOKEN_MODIFIERS,
    TOKEN_TYPES,
    tokens,
)
from tests.kit.course import course as make_course


def spans(text: str, found: list) -> list[tuple[str, int, int]]:
    return [(text[t.start : t.start + t.length], t.type, t.modifiers) for t in found]


def test_legend() -> None:
    assert TOKEN_TYPES[MARKER] == "variable" and TOKEN_TYPES[OPERATOR] == "operator"
    assert len(set(TOKEN_MODIFIERS)) == len(TOKEN_MODIFIERS)


def test_markers_and_operators() -> None:
    text = "?[{{ a|b }} One//1 | Two | ...other]\n\nUse {{ a|b }}, `{{ c }}` and {{ }}.\n"
    course = make_course({"a.md": text})
    found = spans(text, tokens(course.snapshot, course.uri("a.md")))
    assert found == [
        ("?[", OPERATOR, 0),
        ("{{ a|b }}", MARKER, BINDING),
        ("//", OPERATOR, 0),
        ("|", OPERATOR, 0),
        ("|", OPERATOR, 0),
        ("...", OPERATOR, 0),
        ("]", OPERATOR, 0),
        ("{{ a|b }}", MARKER, 0),
        ("{{ c }}", MARKER, LITERAL),
        ("{{ }}", MARKER, INVALID),
    ]


def test_multiple_choice_legacy_and_host_keys() -> None:
    text = "?[%{{ k }} A||B|||C]\n\n{{ browser_language }} and {{ open\n"
    course = make_course({"a.md": text}, config='host = "playground"\n')
    found = spans(text, tokens(course.snapshot, course.uri("a.md")))
    assert found == [
        ("?[", OPERATOR, 0),
        ("%{{ k }}", MARKER, BINDING | LEGACY),
        ("||", OPERATOR, 0),
        ("||", OPERATOR, 0),
        ("]", OPERATOR, 0),
        ("{{ browser_language }}", MARKER, READONLY),
        ("{{", MARKER, INVALID),
    ]


def test_single_choice_ignores_runs_of_bars() -> None:
    text = "?[A | B || C]\n"
    course = make_course({"a.md": text})
    found = spans(text, tokens(course.snapshot, course.uri("a.md")))
    assert [s for s, _, _ in found] == ["?[", "|", "]"]


def test_range_request() -> None:
    text = "{{ a }}\n\n{{ b }}\n\n{{ c }}\n"
    course = make_course({"a.md": text})
    uri = course.uri("a.md")
    found = spans(text, tokens(course.snapshot, uri, text.index("{{ b"), text.index("{{ c")))
    assert found == [("{{ b }}", MARKER, 0)]
    assert tokens(course.snapshot, "file:///none.md") == []


def test_marker_with_line_breaks_as_padding_is_one_token() -> None:
    text = "Use {{\n  key\n}} here.\n"
    course = make_course({"a.md": text})
    [token] = tokens(course.snapshot, course.uri("a.md"))
    assert text[token.start : token.start + token.length] == "{{\n  key\n}}"


def test_under_an_old_target_only_what_the_runtime_binds_is_a_binding() -> None:
    text = "?[{{ a }} One]\n\n?[%{{ b }} Two]\n"
    course = make_course({"a.md": text}, config='target = "markdown-flow-0.4"\n')
    found = spans(text, tokens(course.snapshot, course.uri("a.md")))
    markers = [(span, modifiers) for span, kind, modifiers in found if kind == MARKER]
    assert markers == [("{{ a }}", 0), ("%{{ b }}", BINDING | LEGACY)]
