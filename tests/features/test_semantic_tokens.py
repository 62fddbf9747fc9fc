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
from tests.kit.course import course_text


def check_tokens(text: str) -> None:
    """The course text's annotations are the tokens of its lesson `a.md`, each labelled
    with its type and modifiers (`variable.declaration`), in the order they are sent."""
    course = course_text(text)
    found = tokens(course.snapshot, course.uri("a.md"))
    assert [t.start for t in found] == sorted(t.start for t in found)
    course.check(("a.md", t.start, t.start + t.length, label(t.type, t.modifiers)) for t in found)


def label(kind: int, modifiers: int) -> str:
    return ".".join(
        [TOKEN_TYPES[kind], *(m for i, m in enumerate(TOKEN_MODIFIERS) if modifiers >> i & 1)]
    )


def spans(text: str, found: list) -> list[tuple[str, int, int]]:
    return [(text[t.start : t.start + t.length], t.type, t.modifiers) for t in found]


def test_legend() -> None:
    assert TOKEN_TYPES[MARKER] == "variable" and TOKEN_TYPES[OPERATOR] == "operator"
    assert len(set(TOKEN_MODIFIERS)) == len(TOKEN_MODIFIERS)
    assert [label(MARKER, m) for m in (BINDING, LEGACY, LITERAL, INVALID, READONLY)] == [
        "variable.declaration",
        "variable.deprecated",
        "variable.literal",
        "variable.invalid",
        "variable.readonly",
    ]


def test_markers_and_operators() -> None:
    check_tokens(
        """
        //- a.md
        ?[{{ a|b }} One//1 | Two | ...other]
        ^^ %% operator
        %%^^^^^^^^^ variable.declaration
        %%             ^^ operator
        %%                 ^ operator
        %%                       ^ operator
        %%                         ^^^ operator
        %%                                 ^ operator

        Use {{ a|b }}, `{{ c }}` and {{ }}.
        %%  ^^^^^^^^^ variable
        %%              ^^^^^^^ variable.literal
        %%                           ^^^^^ variable.invalid
        """
    )


def test_multiple_choice_legacy_and_host_keys() -> None:
    check_tokens(
        """
        //- mfcourse.toml
        host = "playground"
        //- a.md
        ?[%{{ k }} A||B|||C]
        ^^ %% operator
        %%^^^^^^^^ variable.declaration.deprecated
        %%          ^^ operator
        %%             ^^ operator
        %%                 ^ operator

        {{ browser_language }} and {{ open
        ^^^^^^^^^^^^^^^^^^^^^^ %% variable.readonly
        %%                         ^^ variable.invalid
        """
    )


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
    check_tokens(
        """
        //- mfcourse.toml
        target = "markdown-flow-0.4"
        //- a.md
        ?[{{ a }} One]
        ^^ %% operator
        %%^^^^^^^ variable
        %%           ^ operator

        ?[%{{ b }} Two]
        ^^ %% operator
        %%^^^^^^^^ variable.declaration.deprecated
        %%            ^ operator
        """
    )
