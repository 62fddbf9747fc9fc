"""AI-Shifu lesson structure in the features: block symbols, folding ranges, fixed-output
tokens, the fixed-output-unclosed diagnostic and the fixed-output hover (pure, in memory;
tests/hosts checks the splitting and every runtime sentence against markdown-flow)."""

from __future__ import annotations

import itertools

from mfls.features.diagnostics import FIXED_OUTPUT_UNCLOSED, document_diagnostics
from mfls.features.folding import folding_ranges
from mfls.features.hover import hover
from mfls.features.semantic_tokens import FIXED_TEXT, TOKEN_TYPES, tokens
from mfls.features.symbols import document_symbols
from mfls.workspace.ai_shifu_structure import lesson_structure
from tests.kit.course import course as make_course
from tests.kit.course import course_text, covered, expect, hover_text, outline, token_lines

AI_SHIFU = 'host = "ai-shifu"\n'

LESSON = (
    "# Welcome\n\n?[{{ goal }} Learn | Teach]\n\n"
    "Setext or separator\n---\n"
    "!===\nHello {{ goal }}!\n\nAs written.\n!===\n"
    "---\n"
    "## Prompt\n\nTalk about {{ goal }}.\n===Fixed {{ goal }}===\n"
)


def test_blocks_split_at_dash_lines_even_under_a_paragraph() -> None:
    structure = lesson_structure(LESSON)
    assert [(b.fixed, LESSON[b.start : b.end]) for b in structure.blocks] == [
        (False, "# Welcome\n\n?[{{ goal }} Learn | Teach]\n\nSetext or separator"),
        (True, "!===\nHello {{ goal }}!\n\nAs written.\n!==="),
        (False, "## Prompt\n\nTalk about {{ goal }}.\n===Fixed {{ goal }}==="),
    ]
    spans = [[(LESSON[s.start : s.end], s.fence) for s in b.spans] for b in structure.blocks]
    assert spans == [
        [],
        [("!===\nHello {{ goal }}!\n\nAs written.\n!===", True)],
        [("===Fixed {{ goal }}===", False)],
    ]


def test_an_unclosed_fence_is_a_problem_and_not_fixed() -> None:
    made = course_text(
        """
        !===
        ^^^^ %% unclosed
        never closed
        ---
        !===
        closed
        !==="""
    )
    text = made.text("01.md")
    structure = lesson_structure(text)
    assert [(text[b.start : b.end], b.fixed) for b in structure.blocks] == [
        ("!===\nnever closed", False),
        ("!===\nclosed\n!===", True),
    ]
    made.check(("01.md", s.start, s.end, "unclosed") for s in structure.unclosed)


def test_symbols_list_the_blocks_with_their_headings_and_interactions() -> None:
    made = make_course({"a.md": LESSON}, config=AI_SHIFU)
    symbols = document_symbols(made.snapshot, made.uri("a.md"))
    # CommonMark (the scanner) reads a setext heading where markdown-flow splits
    assert outline(LESSON, symbols).splitlines() == [
        "block 'Block 1' (# Welcome): 1:1 to 5:20 at '# Welcome'",
        "  heading 'Welcome': 1:1 to 5:20 at 'Welcome'",
        "    interaction 'goal' (single choice: Learn | Teach):"
        " '?[{{ goal }} Learn | Teach]' at 'goal'",
        "      binding 'goal' (binding): '{{ goal }}' at 'goal'",
        "    heading 'Setext or separator': 'Setext or separator' at 'Setext or separator'",
        "block 'Block 2 (fixed output)' (!===): 7:1 to 11:5 at '!==='",
        "  heading 'As written. !===': 10:1 to 11:5 at 'As written.\\n!==='",
        "block 'Block 3' (## Prompt): 13:1 to 16:23 at '## Prompt'",
        "  heading 'Prompt': 13:1 to 16:23 at 'Prompt'",
    ]


def test_a_single_plain_block_keeps_the_plain_outline() -> None:
    course = make_course({"a.md": "# One\n\n?[{{ q }} A | B]\n"}, config=AI_SHIFU)
    symbols = document_symbols(course.snapshot, course.uri("a.md"))
    assert [(s.name, s.kind) for s in symbols] == [("One", "heading")]


def test_other_hosts_keep_the_plain_outline() -> None:
    made = make_course({"a.md": LESSON})
    uri = made.uri("a.md")
    assert outline(LESSON, document_symbols(made.snapshot, uri)).splitlines() == [
        "heading 'Welcome': 1:1 to 17:1 at 'Welcome'",
        "  interaction 'goal' (single choice: Learn | Teach):"
        " '?[{{ goal }} Learn | Teach]' at 'goal'",
        "    binding 'goal' (binding): '{{ goal }}' at 'goal'",
        "  heading 'Setext or separator': 5:1 to 10:1 at 'Setext or separator'",
        "  heading 'As written. !===': 10:1 to 13:1 at 'As written.\\n!==='",
        "  heading 'Prompt': 13:1 to 17:1 at 'Prompt'",
    ]
    assert token_lines(LESSON, tokens(made.snapshot, uri)) == [
        "operator '?['",
        "variable.declaration '{{ goal }}'",
        "operator '|'",
        "operator ']'",
        "variable '{{ goal }}'",
        "variable '{{ goal }}'",
        "variable '{{ goal }}'",
    ]
    assert document_diagnostics(made.snapshot, uri) == []
    assert [
        (f.kind, covered(LESSON, f.start, f.end)) for f in folding_ranges(made.snapshot, uri)
    ] == [
        ("section", "1:1 to 16:23"),
        ("section", "5:1 to 8:18"),
        ("section", "10:1 to 12:4"),
        ("section", "13:1 to 16:23"),
    ]


def test_folding_ranges_cover_blocks_sections_code_and_fixed_output() -> None:
    text = LESSON + "\n```\ncode\nmore\n```\n\n<div>\nx\n</div>\n"
    made = make_course({"a.md": text}, config=AI_SHIFU)
    folds = folding_ranges(made.snapshot, made.uri("a.md"))
    assert [(f.kind, covered(text, f.start, f.end)) for f in folds] == [
        ("section", "1:1 to 25:7"),
        ("block", "1:1 to 5:20"),
        ("section", "5:1 to 8:18"),
        ("block", "7:1 to 11:5"),
        ("fixed", "7:1 to 11:5"),
        ("section", "10:1 to 12:4"),
        ("section", "13:1 to 25:7"),
        ("block", "13:1 to 25:7"),
        ("code", "18:1 to 21:4"),
        ("html", "23:1 to 25:7"),
    ]


def test_folding_ranges_without_a_host_structure() -> None:
    text = "# A\n\ntext\n\n## B\n\nmore\n\n?[{{ q }} One\n| Two]\n"
    made = make_course({"a.md": text})
    folds = folding_ranges(made.snapshot, made.uri("a.md"))
    assert [(f.kind, covered(text, f.start, f.end)) for f in folds] == [
        ("section", "1:1 to 10:7"),
        ("section", "5:1 to 10:7"),
        ("interaction", "9:1 to 10:7"),
    ]


def test_tokens_mark_fixed_output() -> None:
    made = make_course({"a.md": LESSON}, config=AI_SHIFU)
    found = tokens(made.snapshot, made.uri("a.md"))
    assert TOKEN_TYPES[FIXED_TEXT] == "string" and TOKEN_TYPES[:2] == ("variable", "operator")
    # The markers in the fenced block and in the ===...=== line are fixed.
    assert token_lines(LESSON, found) == [
        "operator '?['",
        "variable '{{ goal }}'",
        "operator '|'",
        "operator ']'",
        "string '!===\\nHello '",
        "variable.fixed '{{ goal }}'",
        "string '!\\n\\nAs written.\\n!==='",
        "variable '{{ goal }}'",
        "string '===Fixed '",
        "variable.fixed '{{ goal }}'",
        "string '==='",
    ]
    ends = [(t.start, t.start + t.length) for t in found]
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(ends))


def test_unclosed_fence_diagnostic() -> None:
    text = "Intro\n---\n!===\nnot closed {{ goal }}\n---\nnext"
    course = make_course({"a.md": text}, config=AI_SHIFU)
    found = [
        d
        for d in document_diagnostics(course.snapshot, course.uri("a.md"))
        if d.code == "fixed-output-unclosed"
    ]
    assert [(text[d.start : d.end], d.severity, d.message) for d in found] == [
        ("!===", "warning", FIXED_OUTPUT_UNCLOSED)
    ]


def test_hover_inside_fixed_output_says_it_is_still_substituted() -> None:
    text = "?[{{ goal }} A | B]\n---\n!===\nHi {{ go$0al }}\n!===\n---\nTalk.\n===Bye {{ goal }}==="
    made = make_course({"a.md": text}, config=AI_SHIFU)
    uri = made.uri("a.md")
    expect(hover_text(made, hover(made.snapshot, uri, made.offset)), "hover/fixed_block.md")
    later = made.offset_of("a.md", "{{ goal }}===", 3)
    expect(hover_text(made, hover(made.snapshot, uri, later)), "hover/fixed_span.md")
    binding = hover(made.snapshot, uri, made.offset_of("a.md", "goal"))
    expect(hover_text(made, binding), "hover/fixed_binding.md")
