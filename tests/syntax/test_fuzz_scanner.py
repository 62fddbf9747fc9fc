"""Property tests: the scanner never raises and its results are always well formed."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt
from markdown_it.token import Token

from mfls.syntax.blocks import iter_units
from mfls.syntax.inline import InlineMode, InlineScan, scan_inline
from mfls.syntax.keys import WHITESPACE, normalize_key
from mfls.syntax.model import BlockKind, LiteralKind, Marker, ScanResult
from mfls.syntax.scanner import scan, scan_markers, scan_unit

ANY_TEXT = st.text(alphabet=st.characters(codec=None, categories=None), max_size=300)

CONTROL = [chr(c) for c in range(0x00, 0x20)] + [chr(c) for c in range(0x7F, 0xA0)]
FRAGMENTS = [
    "{{",
    "}}",
    "{{ a }}",
    "{{b}}",
    "%{{",
    "%{{ c }}",
    "{{}}",
    "{{ ",
    " }}",
    "{",
    "}",
    "?[",
    "]",
    "[",
    "](",
    ")",
    "(",
    "|",
    "||",
    "//",
    "...",
    "\\",
    "\\{",
    "`",
    "``",
    "$",
    "$$",
    "<",
    ">",
    "<div>",
    "</div>",
    "<pre>",
    "</pre>",
    "<script>",
    "</script>",
    "<!--",
    "-->",
    "<?",
    "?>",
    "<!X",
    "<![CDATA[",
    "]]>",
    '<a href="',
    '"',
    "'",
    "<http://x.y/",
    "<a@b.c>",
    "[x]: /u",
    "[x][",
    "![",
    "\n",
    "\r\n",
    "\r",
    "\n\n",
    "> ",
    "- ",
    "1. ",
    "  ",
    "    ",
    "\t",
    "```",
    "~~~",
    "# ",
    "===",
    "---",
    "***",
    "🚀",
    "\U0001d11e",
    "\ufeff",
    "\ud800",
    "\udfff",
    "\x00",
    "key",
    "A",
    " ",
    *sorted(WHITESPACE),
    *CONTROL,
]
SHAPED_TEXT = st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=4)), max_size=60).map(
    "".join
)

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_marker_spans(text: str, markers: Sequence[Marker]) -> None:
    """Markers in order, disjoint, within the text, each `{{`/`%{{` ... `}}` around a
    normalized key."""
    previous_end = 0
    for m in markers:
        assert 0 <= m.start < m.end <= len(text)
        assert m.start >= previous_end, "markers overlap"
        previous_end = m.end
        source = text[m.start : m.end]
        assert source.startswith("%{{" if m.legacy else "{{")
        assert source.endswith("}}")
        assert normalize_key(m.key) == (m.key, None)


def check_inline(text: str, found: InlineScan, mode: InlineMode) -> None:
    n = len(text)
    check_marker_spans(text, found.markers)
    for m in found.markers:
        assert "}}" not in m.key
        assert text[m.key_start : m.key_end] == m.key
        if mode is InlineMode.LITERAL:
            assert m.literal
    for bad in found.invalid:
        assert 0 <= bad.start < bad.end <= n
        assert text.startswith("{{", bad.start)
    for x in found.interactions:
        assert 0 <= x.start < x.end <= n
        assert text.startswith("?[", x.start) and text[x.end - 1] == "]"
        for c in x.choices:
            assert x.start < c.start < c.end < x.end
    for lit in found.literals:
        assert 0 <= lit.start < lit.end <= n


def _readable_spans(result: ScanResult) -> list[tuple[int, int]]:
    """The source spans whose inline text the scanner reads (rules 9, 10, 16)."""
    spans = []
    for block in result.blocks:
        if not block.inline:
            continue
        if block.kind is BlockKind.HTML_BLOCK and block.level < 6:
            continue
        if block.kind in (BlockKind.INDENTED_CODE, BlockKind.THEMATIC_BREAK):
            continue
        spans.append((block.inline[0][0], block.inline[-1][1]))
    return spans


def check_result(text: str, result: ScanResult) -> None:
    n = len(text)
    spans = _readable_spans(result)
    raw_html = [
        (block.start, block.end)
        for block in result.blocks
        if block.kind is BlockKind.HTML_BLOCK and block.level < 6
    ]
    for item in (*result.markers, *result.invalid, *result.interactions):
        if any(a <= item.start and item.end <= b for a, b in spans):
            continue
        # rules 10 and 16: in raw HTML blocks 1-5 only complete markers, as literals
        inside = any(a <= item.start and item.end <= b for a, b in raw_html)
        assert inside and item in result.markers and item.literal, item
    check_marker_spans(text, result.markers)
    for m in result.markers:
        assert text[m.key_start : m.key_end] == m.key
    for items in (result.markers, result.invalid, result.interactions, result.literals):
        starts = [item.start for item in items]
        assert starts == sorted(starts)
    for bad in result.invalid:
        assert 0 <= bad.start < bad.end <= n
        assert text.startswith("{{", bad.start)
        assert all(bad.end <= m.start or m.end <= bad.start for m in result.markers)
    for x in result.interactions:
        assert 0 <= x.start < x.end <= n
        assert text.startswith("?[", x.start) and text[x.end - 1] == "]"
        if x.binding_marker is not None:
            assert x.binding == x.binding_marker.key
            assert x.binding_marker in result.markers
            assert x.start < x.binding_marker.start < x.binding_marker.end < x.end
        for c in x.choices:
            assert x.start < c.start < c.end < x.end
    for lit in result.literals:
        assert 0 <= lit.start < lit.end <= n


def scan_by_units(text: str) -> ScanResult:
    markers, invalid, interactions = [], [], []
    for unit in iter_units(text):
        part = scan_unit(text, unit)
        markers.extend(part.markers)
        invalid.extend(part.invalid)
        interactions.extend(part.interactions)
    return ScanResult(
        markers=tuple(markers), invalid=tuple(invalid), interactions=tuple(interactions)
    )


def check_scan(text: str) -> None:
    """The scan keeps every invariant, is deterministic, and equals the scan unit by unit."""
    result = scan(text)
    check_result(text, result)
    assert scan(text) == result
    assert scan_by_units(text).to_json() == result.to_json()


@FUZZ
@given(ANY_TEXT)
def test_scan_arbitrary_text(text: str) -> None:
    check_scan(text)


@FUZZ
@given(SHAPED_TEXT)
def test_scan_markdownflow_shaped_text(text: str) -> None:
    check_scan(text)


@FUZZ
@given(st.one_of(SHAPED_TEXT, ANY_TEXT), st.sampled_from(list(InlineMode)))
def test_scan_inline_any_mode(text: str, mode: InlineMode) -> None:
    found = scan_inline(text, mode)
    check_inline(text, found, mode)
    assert scan_inline(text, mode) == found


@FUZZ
@given(SHAPED_TEXT)
def test_unclosed_marker_owns_the_rest_of_its_text(text: str) -> None:
    found = scan_inline(text, InlineMode.MARKDOWN)
    for bad in found.invalid:
        if bad.reason.value == "unclosed":
            assert bad.end == len(text)
            assert all(m.end <= bad.start for m in found.markers)
            assert all(x.end <= bad.start for x in found.interactions)


INLINE_FRAGMENTS = [
    "[",
    "]",
    "(",
    ")",
    "![",
    "`",
    "``",
    "<",
    ">",
    "<a>",
    "</a>",
    "<a href='x'>",
    "<!-- c -->",
    "<?p?>",
    "<!X y>",
    "<![CDATA[z]]>",
    "<http://a.b/c>",
    "<a@b.cd>",
    "\\",
    "\\[",
    "\\]",
    "\\`",
    "\\(",
    "\\)",
    '"',
    "'",
    " ",
    "\n",
    "a",
    "x y",
    "*",
    "_",
    "](",
    ")(",
    "<x",
    "&amp;",
    "[x][y]",
    "[]",
    "\t",
]
_COMMONMARK = MarkdownIt("commonmark")


def _tokens(tokens: list[Token]) -> list[Token]:
    out: list[Token] = []
    for token in tokens:
        out.append(token)
        if token.children:
            out.extend(_tokens(token.children))
    return out


@FUZZ
@given(st.lists(st.sampled_from(INLINE_FRAGMENTS), max_size=25).map("".join))
def test_literal_contexts_agree_with_markdown_it(fragment: str) -> None:
    """Code spans, raw HTML, autolinks and inline links are found where CommonMark finds them.

    Texts with a full reference link are left out: the scanner does not know which
    labels are defined (rule 24).
    """
    # Every line starts with "x " so that no line can start a block of its own.
    text = "p " + fragment.strip().replace("\n", "\nx ") + " q"
    tokens = _tokens(_COMMONMARK.parse(text))
    if sum(t.type == "paragraph_open" for t in tokens) != 1:
        return
    found = scan_inline(text, InlineMode.MARKDOWN)
    kinds = [lit.kind for lit in found.literals]
    if LiteralKind.LINK_LABEL in kinds:
        return
    expected = (
        sum(t.type == "code_inline" for t in tokens),
        sum(t.type == "html_inline" for t in tokens),
        sum(t.type == "link_open" and t.markup == "autolink" for t in tokens),
        sum(
            (t.type == "link_open" and t.markup != "autolink") or t.type == "image" for t in tokens
        ),
    )
    assert expected == (
        kinds.count(LiteralKind.CODE_SPAN),
        kinds.count(LiteralKind.RAW_HTML),
        kinds.count(LiteralKind.AUTOLINK),
        kinds.count(LiteralKind.LINK_RESOURCE),
    )


REPEATED = [
    "{{",
    "?[",
    "`",
    "<",
    "$",
    "[",
    "]",
    "!",
    "\\",
    "(",
    "?[{{a}}",
    "[](x",
    "[a](<",
    '[a](x "',
    "$a ",
    "<!--",
    "<?",
    "<![CDATA[",
    "<!A",
    "<a b ",
    "[x][",
    "`` `",
    "{{a}}?[",
    "](",
    "%{{",
]


def _fastest(work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


@pytest.mark.alone
@pytest.mark.parametrize("unit", REPEATED)
def test_repeated_openers_stay_linear(unit: str) -> None:
    # A growth check, not a speed limit: four times the input may cost about four
    # times as long (a quadratic path costs sixteen); the margin absorbs machine noise.
    small = unit * (25_000 // len(unit) + 1)
    big = unit * (100_000 // len(unit) + 1)
    for mode in InlineMode:
        t_small = _fastest(lambda: scan_inline(small, mode))  # noqa: B023
        t_big = _fastest(lambda: scan_inline(big, mode))  # noqa: B023
        assert t_big < 9 * t_small + 0.1, (mode, t_small, t_big)
    t_small = _fastest(lambda: scan(small))
    t_big = _fastest(lambda: scan(big))
    assert t_big < 9 * t_small + 0.1, (t_small, t_big)


@given(st.one_of(SHAPED_TEXT, ANY_TEXT))
def test_scan_markers_is_the_markers_of_scan(text: str) -> None:
    full, light = scan(text), scan_markers(text)
    assert (light.markers, light.invalid, light.interactions) == (
        full.markers,
        full.invalid,
        full.interactions,
    )
    assert light.blocks == () and light.literals == ()
