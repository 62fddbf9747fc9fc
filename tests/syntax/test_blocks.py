"""Block structure: specific shapes, invariants, agreement with markdown-it-py, robustness."""

from __future__ import annotations

import gc
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mfls.syntax.blocks import _PLAIN_LINES, Unit, _plain_lines_end, iter_units, parse_blocks
from mfls.syntax.model import Block, BlockKind
from tests.commonmark.blockcompare import markdown_it_blocks, mfls_blocks

P = BlockKind.PARAGRAPH
H = BlockKind.HEADING
FC = BlockKind.FENCED_CODE
IC = BlockKind.INDENTED_CODE
HB = BlockKind.HTML_BLOCK
LRD = BlockKind.LINK_REFERENCE_DEFINITION
TB = BlockKind.THEMATIC_BREAK


def inline_text(text: str, block: Block) -> str:
    return "".join(text[a:b] for a, b in block.inline)


def only(text: str) -> Block:
    blocks = parse_blocks(text)
    assert len(blocks) == 1, blocks
    return blocks[0]


# -- inline ranges ----------------------------------------------------------------------


def test_paragraph_inline_text_strips_indentation_and_final_spaces() -> None:
    text = "  foo  \n   bar\t \n"
    block = only(text)
    assert (block.kind, block.start, block.end) == (P, 0, 16)
    assert inline_text(text, block) == "foo  \nbar"


def test_paragraph_in_quote_and_list_removes_container_markers() -> None:
    text = "> - a {{ k\n>   }} b\n"
    block = only(text)
    assert block.start == 0 and block.end == len(text) - 1
    assert inline_text(text, block) == "a {{ k\n}} b"


def test_lazy_continuation_line_joins_the_paragraph() -> None:
    text = "> a\nb\n"
    block = only(text)
    assert inline_text(text, block) == "a\nb"


def test_crlf_and_cr_line_endings_are_kept_between_lines() -> None:
    for eol in ("\r\n", "\r"):
        text = f"a{eol}  b{eol}{eol}c"
        first, second = parse_blocks(text)
        assert inline_text(text, first) == f"a{eol}b"
        assert inline_text(text, second) == "c"
        assert first.end == 1 + len(eol) + 3


def test_atx_heading_inline_text_excludes_closing_sequence() -> None:
    cases = {
        "# foo ##  ": "foo",
        "## foo#": "foo#",
        "### foo \\###": "foo \\###",
        "# ###": "",
        "#": "",
        "#\tbar #\t": "bar",
    }
    for source, expected in cases.items():
        block = only(source)
        assert block.kind is H and block.level == len(source) - len(source.lstrip("#"))
        assert inline_text(source, block) == expected, source
        assert block.end == len(source)


def test_setext_heading_covers_paragraph_and_underline() -> None:
    text = "Foo\n  bar \n---\n"
    block = only(text)
    assert (block.kind, block.level, block.setext) == (H, 2, True)
    assert (block.start, block.end) == (0, 14)
    assert inline_text(text, block) == "Foo\nbar"


def test_fenced_code_inline_is_the_info_string_only() -> None:
    text = "``` py {{ k }}  \ncode {{ x }}\n```\n"
    block = only(text)
    assert block.kind is FC and block.end == len(text) - 1
    assert inline_text(text, block) == "py {{ k }}"
    assert only("```\nx\n```").inline == ()


def test_unclosed_fence_runs_to_the_end_and_container_end_closes_it() -> None:
    text = "```\na\n\n"
    assert only(text).end == len(text) - 1
    text = "> ```\n> a\nb\n"
    fence, para = parse_blocks(text)
    assert fence.kind is FC and fence.end == 9
    assert para.kind is P and inline_text(text, para) == "b"


def test_html_block_types_and_ranges() -> None:
    text = "<div>\n*a* {{ k }}\n\nafter"
    html, para = parse_blocks(text)
    assert (html.kind, html.level) == (HB, 6)
    assert inline_text(text, html) == "<div>\n*a* {{ k }}"
    text = "<!-- {{ a }}\n\n-->tail\nnext"
    html, para = parse_blocks(text)
    # A raw block's inline text is its whole text (docs/syntax.md rule 16).
    assert (html.level, html.inline, html.end) == (2, ((0, 21),), 21)
    assert inline_text(text, para) == "next"
    for source, kind in [
        ("<script>", 1),
        ("<?php", 3),
        ("<!DOCTYPE html>", 4),
        ("<![CDATA[", 5),
        ("</table>", 6),
        ("<a href='x'>  ", 7),
    ]:
        assert only(source).level == kind, source


def test_type_7_excludes_raw_tag_names_only_for_open_tags() -> None:
    # 0.31.2: "a complete open tag (with any tag name other than pre, script, style, or
    # textarea) or a complete closing tag".
    for source in ("<pre/>", "<script/>", "<TEXTAREA/>", "<style/>"):
        assert only(source).kind is P, source
    for source in ("</pre>", "</script>", "</style>  ", "</TEXTAREA>"):
        block = only(source)
        assert (block.kind, block.level) == (HB, 7), source


def test_type_7_cannot_interrupt_a_paragraph() -> None:
    assert only("a\n<span>\n").kind is P
    assert [b.kind for b in parse_blocks("a\n<div>\n")] == [P, HB]


def test_html_block_in_quote_ends_with_the_quote() -> None:
    text = "> <pre>\n> x\ny\n"
    html, para = parse_blocks(text)
    assert (html.kind, html.end) == (HB, 11)
    assert inline_text(text, para) == "y"


def test_reference_definitions_become_blocks() -> None:
    text = '[a]: /u\n[b]:\n  <v w> "t\nt"\nrest {{ k }}\n'
    a, b, para = parse_blocks(text)
    assert (a.kind, a.start, a.end) == (LRD, 0, 7)
    assert inline_text(text, a) == "[a]: /u"
    assert (b.kind, b.start, b.end) == (LRD, 8, 26)
    assert inline_text(text, b) == '[b]:\n<v w> "t\nt"'
    assert (para.start, inline_text(text, para)) == (27, "rest {{ k }}")


def test_setext_underline_after_definitions_only_is_paragraph_text() -> None:
    text = "[foo]: /url\n===\n[foo]\n"
    lrd, para = parse_blocks(text)
    assert lrd.kind is LRD
    assert (para.kind, para.start, inline_text(text, para)) == (P, 12, "===\n[foo]")


def test_definition_cannot_interrupt_a_paragraph_and_title_fallback() -> None:
    assert only("Foo\n[bar]: /baz\n").kind is P
    text = '[foo]: /url\n"title" ok\n'
    lrd, para = parse_blocks(text)
    assert lrd.end == 11 and inline_text(text, para) == '"title" ok'


def test_nul_is_structure_only() -> None:
    assert only("[a]: /u\0v").kind is LRD
    text = "#\0 x"
    assert only(text).kind is P


def test_tabs_expand_to_four_column_stops() -> None:
    assert only(">\t\tfoo").kind is IC
    assert [b.kind for b in parse_blocks("- foo\n\n\tbar")] == [P, P]
    assert [b.kind for b in parse_blocks("- foo\n\n\t\tbar")] == [P, IC]


# -- units ------------------------------------------------------------------------------


def test_units_are_top_level_blocks_with_their_trailing_blank_lines() -> None:
    text = "\n\n# h\n\npara\nlazy\n\n- a\n\n  b\n- c\n\n\n> q\n"
    units = list(iter_units(text))
    assert [(u.start, u.end) for u in units] == [(0, 7), (7, 18), (18, 33), (33, 37)]
    assert [len(u.blocks) for u in units] == [1, 1, 3, 1]


def test_iter_units_is_lazy() -> None:
    text = "a\n\n" * 10 + "```\n" + "x\n" * 10
    units = iter_units(text)
    first = next(units)
    assert isinstance(first, Unit) and (first.start, first.end) == (0, 3)


def test_empty_and_blank_texts() -> None:
    assert list(iter_units("")) == []
    assert list(iter_units(" \n\t\n")) == [Unit(0, 4, ())]


def check_invariants(text: str) -> None:
    units = list(iter_units(text))
    n = len(text)
    if n == 0:
        assert units == []
        return
    assert units[0].start == 0 and units[-1].end == n
    previous_end = -1
    for unit, following in zip(units, [*units[1:], None], strict=True):
        if following is not None:
            assert unit.end == following.start
            assert list(iter_units(text, following.start)) == units[units.index(following) :]
        for block in unit.blocks:
            assert unit.start <= block.start <= block.end <= unit.end
            assert block.start > previous_end or block.start == previous_end == 0
            previous_end = block.end
            for a, b in block.inline:
                assert block.start <= a < b <= block.end
    assert parse_blocks(text) == tuple(b for u in units for b in u.blocks)


_FRAGMENTS = [
    "", "", "a", "foo bar", "  b", "    code", "\tcode", "> ", ">", "> a", "- ", "-", "- a",
    "* b", "1. x", "2) y", "10. z", "  - c", "   d", "#", "# h", "## h ##", "===", "---",
    "***", "```", "```py", "~~~", "````", "<div>", "</div>", "<!-- c", "-->", "<pre>",
    "<a href='x'>", ">     z", "  > q", "-\tx", " 1. a", "  ", "\t",
    "> ```", "- ```", "  ```", "<?x", "?>", "<!X", "<![CDATA[", "]]>", "<script>",
    "> ---", "  ---", "- # x", "- - -", "* * *", "+ p", "3. q", "a  ", "b\\", "<x>", "</y>",
    "{{ k }} ?[A|B]", "`code", "x`", "</pre>", "</script>",
]  # fmt: skip
# Definitions and nested containers are followed by a blank line in the comparison:
# markdown-it-py ends a definition's paragraph early and reads a lazy line indented four
# columns after nested containers as code (tests/commonmark/README.md).
_FOLLOWED_BY_BLANK = [
    "[a]: /u", "[b]: <x y>", "- [c]: /v", "> [d]: /w", "[e]:\n/u 'title'",
    "> > x", "- > y", "> - a",
]  # fmt: skip

_documents = st.lists(
    st.one_of(
        st.sampled_from(_FRAGMENTS), st.sampled_from(_FOLLOWED_BY_BLANK).map(lambda d: d + "\n")
    ),
    min_size=1,
    max_size=12,
).map(lambda lines: "\n".join(lines) + "\n")


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_documents)
def test_leaf_blocks_agree_with_markdown_it(text: str) -> None:
    assert mfls_blocks(text) == markdown_it_blocks(text)


@settings(max_examples=300, deadline=None)
@given(_documents, st.sampled_from(["\r\n", "\r"]))
def test_line_endings_do_not_change_structure(text: str, eol: str) -> None:
    assert mfls_blocks(text.replace("\n", eol)) == mfls_blocks(text)


_chars = st.one_of(
    st.characters(codec=None),
    st.sampled_from(["\ud800", "\udfff", "\0", "\t", " ", "\r", "\n", "\x0b", "\x0c", "\x85"]),
    st.sampled_from(list("#`~*+_=<>-0123456789[]:()\"'\\!?/")),
)


@settings(max_examples=1500, deadline=None)
@given(st.text(_chars, max_size=80), st.integers(0, 80))
def test_plain_lines_fast_path_equals_its_pattern(text: str, pos: int) -> None:
    pos = min(pos, len(text))
    m = _PLAIN_LINES.match(text, pos)
    assert _plain_lines_end(text, pos) == (pos if m is None else m.end())


@settings(max_examples=1500, deadline=None)
@given(st.text(_chars, max_size=80))
def test_any_text_parses_with_invariants(text: str) -> None:
    check_invariants(text)


@settings(max_examples=500, deadline=None)
@given(_documents)
def test_markdown_like_text_parses_with_invariants(text: str) -> None:
    check_invariants(text)


# -- linear time on adversarial input ---------------------------------------------------


def _seconds(text: str) -> float:
    # The collector's passes over many live objects are noise here, not parser cost.
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        parse_blocks(text)
        return time.perf_counter() - start
    finally:
        gc.enable()


@pytest.mark.alone
def test_adversarial_inputs_stay_linear() -> None:
    makers = {
        "quotes": lambda n: ">" * n,
        "bullets": lambda n: "- " * n,
        "backticks": lambda n: "`" * n,
        "unclosed fences": lambda n: "````\n" + "```\n" * n,
        "angle brackets": lambda n: "<" * n + "\n<a" + " b" * n,
        "labels": lambda n: "[" * n + "\n\n" + "[a]: /u\n" * (n // 8),
        "deep list then blank lines": lambda n: "- " * (n // 20) + "a\n" + "\n" * n,
        "long line": lambda n: "a" + " " * (10 * n) + "b",
        "setext": lambda n: "a\n" + "=\n" * (n // 2),
        "unclosed title": lambda n: '[a]: /u "' + "x\n" * (n // 2),
    }
    for name, make in makers.items():
        small, big = make(20_000), make(80_000)
        t_small = min(_seconds(small) for _ in range(3))
        t_big = min(_seconds(big) for _ in range(3))
        # Four times the input: a linear parser takes about four times as long, a
        # quadratic one sixteen times. The margin absorbs allocator and load noise.
        assert t_big < 9 * t_small + 0.1, (name, t_small, t_big)
