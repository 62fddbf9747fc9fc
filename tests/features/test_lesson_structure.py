"""AI-Shifu lesson structure in the features: block symbols, folding ranges, fixed-output
tokens, the fixed-output-unclosed diagnostic and the fixed-output hover (pure, in memory;
tests/hosts checks the splitting and every runtime sentence against markdown-flow)."""

from __future__ import annotations

import itertools

from course_kit import course as make_course

from mfls.features.diagnostics import FIXED_OUTPUT_UNCLOSED, document_diagnostics
from mfls.features.folding import folding_ranges
from mfls.features.hover import FIXED_BLOCK_NOTE, FIXED_SPAN_NOTE, hover
from mfls.features.semantic_tokens import FIXED, FIXED_TEXT, MARKER, TOKEN_TYPES, tokens
from mfls.features.symbols import document_symbols
from mfls.workspace.ai_shifu_structure import lesson_structure

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
    texts = [LESSON[b.start : b.end] for b in structure.blocks]
    assert texts[0].endswith("Setext or separator")
    assert texts[1].startswith("!===") and texts[1].endswith("!===")
    assert texts[2].startswith("## Prompt")
    assert [b.fixed for b in structure.blocks] == [False, True, False]
    assert [s.fence for s in structure.blocks[2].spans] == [False]


def test_an_unclosed_fence_is_a_problem_and_not_fixed() -> None:
    text = "!===\nnever closed\n---\n!===\nclosed\n!==="
    structure = lesson_structure(text)
    assert [b.fixed for b in structure.blocks] == [False, True]
    assert [(s.start, s.end) for s in structure.unclosed] == [(0, 4)]


def test_symbols_list_the_blocks_with_their_headings_and_interactions() -> None:
    course = make_course({"a.md": LESSON}, config=AI_SHIFU)
    symbols = document_symbols(course.snapshot, course.uri("a.md"))
    assert [s.name for s in symbols] == ["Block 1", "Block 2 (fixed output)", "Block 3"]
    assert {s.kind for s in symbols} == {"block"}
    first = symbols[0]
    assert [c.name for c in first.children] == ["Welcome"]
    # CommonMark (the scanner) reads a setext heading where markdown-flow splits
    welcome = first.children[0]
    assert [c.name for c in welcome.children] == ["goal", "Setext or separator"]
    assert welcome.end <= first.end and welcome.children[1].end <= first.end
    assert [c.name for c in symbols[2].children] == ["Prompt"]


def test_a_single_plain_block_keeps_the_plain_outline() -> None:
    course = make_course({"a.md": "# One\n\n?[{{ q }} A | B]\n"}, config=AI_SHIFU)
    symbols = document_symbols(course.snapshot, course.uri("a.md"))
    assert [(s.name, s.kind) for s in symbols] == [("One", "heading")]


def test_other_hosts_keep_the_plain_outline() -> None:
    course = make_course({"a.md": LESSON})
    symbols = document_symbols(course.snapshot, course.uri("a.md"))
    assert "Block 1" not in [s.name for s in symbols]
    uri = course.uri("a.md")
    assert all(t.modifiers & FIXED == 0 for t in tokens(course.snapshot, uri))
    assert not [d for d in document_diagnostics(course.snapshot, uri) if "fixed" in d.code]
    assert not {f.kind for f in folding_ranges(course.snapshot, uri)} & {"block", "fixed"}


def test_folding_ranges_cover_blocks_sections_code_and_fixed_output() -> None:
    text = LESSON + "\n```\ncode\nmore\n```\n\n<div>\nx\n</div>\n"
    course = make_course({"a.md": text}, config=AI_SHIFU)
    folds = folding_ranges(course.snapshot, course.uri("a.md"))
    kinds = {f.kind for f in folds}
    assert kinds == {"block", "section", "fixed", "code", "html"}
    fixed = next(f for f in folds if f.kind == "fixed")
    assert text[fixed.start : fixed.end].startswith("!===\nHello")
    assert all("\n" in text[f.start : f.end] for f in folds)


def test_folding_ranges_without_a_host_structure() -> None:
    text = "# A\n\ntext\n\n## B\n\nmore\n\n?[{{ q }} One\n| Two]\n"
    course = make_course({"a.md": text})
    folds = folding_ranges(course.snapshot, course.uri("a.md"))
    assert [(f.kind, text[f.start : f.end][:4]) for f in folds] == [
        ("section", "# A\n"),
        ("section", "## B"),
        ("interaction", "?[{{"),
    ]


def test_tokens_mark_fixed_output() -> None:
    course = make_course({"a.md": LESSON}, config=AI_SHIFU)
    found = tokens(course.snapshot, course.uri("a.md"))
    assert TOKEN_TYPES[FIXED_TEXT] == "string" and TOKEN_TYPES[:2] == ("variable", "operator")
    fixed_markers = [t for t in found if t.type == MARKER and t.modifiers & FIXED]
    assert len(fixed_markers) == 2  # in the fenced block and in the ===...=== line
    texts = [LESSON[t.start : t.start + t.length] for t in found if t.type == FIXED_TEXT]
    assert texts[0] == "!===\nHello " and "===Fixed " in texts
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
    course = make_course({"a.md": text}, config=AI_SHIFU)
    info = hover(course.snapshot, course.uri("a.md"), course.offset)
    assert info is not None and FIXED_BLOCK_NOTE in info.markdown
    later = course.offset_of("a.md", "{{ goal }}===", 3)
    info = hover(course.snapshot, course.uri("a.md"), later)
    assert info is not None and FIXED_SPAN_NOTE in info.markdown
    binding = hover(course.snapshot, course.uri("a.md"), 5)
    assert binding is not None and "fixed output" not in binding.markdown
