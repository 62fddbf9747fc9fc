"""AI-Shifu lesson structure, as markdown-flow (the SDK AI-Shifu runs) splits a lesson.

A host layer beside the scanner: it reads the same text and changes nothing the scanner
reads. markdown-flow splits a document into prompt blocks at every match of
`\\n\\s*---\\s*\\n` that overlaps no protected span (code, HTML blocks, markers), so
`text\\n---` separates blocks though CommonMark reads a setext heading. Inside a block,
a line `===text===` and the lines between two `!===` fence lines are fixed output:
shown as written, markers still substituted. A block made only of fixed output is shown
without the AI; an unclosed `!===` makes the whole block an ordinary prompt.

Inside a line, as markdown-flow 0.4.2 (and 0.3.1, 0.3.4) rewrites a prompt block for the
AI (`parser/output.py` `process_output_instructions`): `!===text!===` (any number on one
line, never across lines) and, on a line holding no `!===` and exactly two `===`,
`===text===` are fixed output too. Markers, code blocks and interactions stay what the
scanner reads inside them: the SDK substitutes markers there and cuts a block at every
interaction before it looks for fixed output, so no fixed output spans an interaction.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from typing import Final, NamedTuple

from mfls.syntax.model import BlockKind, ScanResult

BLOCK_SEPARATOR: Final = re.compile(r"\n\s*---\s*\n")
_FENCE: Final = re.compile(r"!={3,}\s*$")
_INLINE: Final = re.compile(r"===(.+)=== *$")
_IN_LINE: Final = re.compile(r"===\s*(.+?)\s*===")
_BANG: Final = re.compile(r"!===(.*?)!===")
_NOT_BREAK: Final = re.compile(r"[^\n]")

LINE: Final = "line"
"""A line `===text===`."""
FENCE: Final = "fence"
"""Lines between two `!===` lines, those lines included."""
IN_LINE: Final = "in-line"
"""`===text===` inside a line that holds other text."""
BANG: Final = "bang"
"""`!===text!===` inside a line."""


class FixedSpan(NamedTuple):
    """Fixed output: a `===text===` line, a `!===` fence (its fence lines included), or
    a `===text===` or `!===text!===` inside a line (`form`). `inner` is the text the
    SDK puts between its `<原样输出>` tags (before it trims an `===` form's); `alone`:
    the SDK shows it without the AI, all that stands between `---` lines and
    interactions being fixed output."""

    start: int
    end: int
    fence: bool
    closed: bool = True
    form: str = LINE
    inner: tuple[int, int] = (0, 0)
    alone: bool = False


class LessonBlock(NamedTuple):
    """One prompt block: its text without surrounding whitespace, as the SDK keeps it."""

    ordinal: int  # 0 for the first block
    start: int
    end: int
    fixed: bool  # the SDK shows the whole block as written (a preserved-content block)
    spans: tuple[FixedSpan, ...] = ()


class Structure(NamedTuple):
    blocks: tuple[LessonBlock, ...]
    separators: tuple[tuple[int, int], ...]  # each `---` line, line break excluded

    @property
    def unclosed(self) -> tuple[FixedSpan, ...]:
        return tuple(s for b in self.blocks for s in b.spans if not s.closed)

    def fixed_at(self, offset: int) -> FixedSpan | None:
        for block in self.blocks:
            if block.start <= offset <= block.end:
                for span in block.spans:
                    if span.closed and span.start <= offset < span.end:
                        return span
        return None


def lesson_structure(
    text: str,
    protected: Sequence[tuple[int, int]] = (),
    opaque: Sequence[tuple[int, int]] = (),
    cuts: Sequence[tuple[int, int]] = (),
) -> Structure:
    """The blocks of `text`; `protected` lists the spans no separator may overlap (the
    code blocks, HTML blocks and markers the scanner found), `opaque` (sorted) those whose
    text fixed output never sees (code blocks, markers), `cuts` (sorted) the
    interactions, at which the SDK cuts a block before it looks for fixed output."""
    segments: list[tuple[int, int]] = []
    separators: list[tuple[int, int]] = []
    at = 0
    guarded = sorted(protected)
    next_span = 0
    for match in BLOCK_SEPARATOR.finditer(text):
        while next_span < len(guarded) and guarded[next_span][1] <= match.start():
            next_span += 1
        if next_span < len(guarded) and guarded[next_span][0] < match.end():
            continue
        segments.append((at, match.start()))
        dash = text.index("---", match.start())
        separators.append((dash, dash + 3))
        at = match.end()
    segments.append((at, len(text)))
    seen = _masked(text, opaque) if opaque and "===" in text else text
    cut_starts = [a for a, _ in cuts]
    blocks: list[LessonBlock] = []
    for start, end in segments:
        part = text[start:end]
        stripped = part.strip()
        if not stripped:
            continue
        first = start + len(part) - len(part.lstrip())
        last = first + len(stripped)
        low, high = bisect_left(cut_starts, first), bisect_left(cut_starts, last)
        inside = [(a, b) for a, b in cuts[low:high] if b <= last]
        pieces = _between(first, last, inside)
        spans: list[FixedSpan] = []
        fixed = not inside
        for piece_start, piece_end in pieces:
            alone, found = _fixed(seen, piece_start, piece_end)
            spans.extend(found)
            fixed = fixed and alone
        blocks.append(LessonBlock(len(blocks), first, last, fixed, tuple(spans)))
    return Structure(tuple(blocks), tuple(separators))


def _masked(text: str, opaque: Sequence[tuple[int, int]]) -> str:
    """`text` with the characters of `opaque` but line breaks made NUL: no `===` there."""
    parts: list[str] = []
    at = 0
    for start, end in opaque:
        if start < at:
            start = at
        if end <= start:
            continue
        parts.append(text[at:start])
        piece = text[start:end]
        parts.append(_NOT_BREAK.sub("\0", piece) if "\n" in piece else "\0" * len(piece))
        at = end
    parts.append(text[at:])
    return "".join(parts)


def _between(start: int, end: int, cuts: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The pieces of `[start, end)` around `cuts`, each without surrounding whitespace, as
    the SDK keeps the content blocks beside an interaction."""
    pieces: list[tuple[int, int]] = []
    at = start
    for cut_start, cut_end in [*cuts, (end, end)]:
        pieces.append((at, cut_start))
        at = max(at, cut_end)
    return [p for p in pieces if p[0] < p[1]]


def _fixed(text: str, start: int, end: int) -> tuple[bool, tuple[FixedSpan, ...]]:
    """The fixed-output spans of one piece of a block (a block, or the text between two
    of its interactions), and whether they make all of it (the SDK then shows it
    without the AI: `is_preserved_content_block`). The spans are those
    `process_output_instructions` rewrites, line by line: `!===text!===` first, then a
    `!===` fence, then `===text===` on a line with exactly two `===` and no `!===`."""
    part = text[start:end]
    lead = len(part) - len(part.lstrip())
    start, end = start + lead, start + len(part.rstrip())
    found: list[FixedSpan] = []
    only_fixed = True
    has_fixed = False
    fence_start: int | None = None
    at = start
    while at <= end:
        line_end = text.find("\n", at, end)
        if line_end == -1:
            line_end = end
        raw = text[at:line_end]
        line = raw.strip()
        if fence_start is not None:
            if _FENCE.match(line):
                inner = (text.find("\n", fence_start, at) + 1, max(at - 1, fence_start))
                found.append(FixedSpan(fence_start, line_end, True, form=FENCE, inner=inner))
                fence_start = None
        elif "!===" in raw and _BANG.search(raw):
            only_fixed = False
            found.extend(
                FixedSpan(
                    at + m.start(),
                    at + m.end(),
                    False,
                    form=BANG,
                    inner=(at + m.start(1), at + m.end(1)),
                )
                for m in _BANG.finditer(raw)
            )
        elif _FENCE.match(line):
            has_fixed = True
            fence_start = at
        elif line:
            whole = _INLINE.match(line)
            content = whole.group(1) if whole else ""
            if content.strip() and "===" not in content:
                has_fixed = True
            else:
                only_fixed = False
            match = _IN_LINE.search(raw) if "!===" not in raw and raw.count("===") == 2 else None
            if match is not None and match.group(1).strip():
                inner = (at + match.start(1), at + match.end(1))
                if whole is not None and content.strip() and "===" not in content:
                    found.append(FixedSpan(at, line_end, False, form=LINE, inner=inner))
                else:
                    found.append(
                        FixedSpan(
                            at + match.start(), at + match.end(), False, form=IN_LINE, inner=inner
                        )
                    )
        at = line_end + 1
    if fence_start is not None:
        fence_end = text.find("\n", fence_start, end)
        found.append(
            FixedSpan(fence_start, end if fence_end == -1 else fence_end, True, False, form=FENCE)
        )
        only_fixed = False
    alone = has_fixed and only_fixed
    return alone, tuple(span._replace(alone=alone) for span in found)


def scanned_structure(text: str, result: ScanResult) -> Structure:
    """`lesson_structure` with the code blocks, HTML blocks and markers of `result`
    protected, as markdown-flow protects them; fixed output read around its code blocks,
    markers and interactions."""
    code = [(block.start, block.end) for block in result.blocks if block.is_code]
    protected = [
        (block.start, block.end)
        for block in result.blocks
        if block.is_code or block.kind is BlockKind.HTML_BLOCK
    ]
    markers = [(marker.start, marker.end) for marker in result.markers]
    protected.extend(markers)
    protected.sort()
    opaque = sorted(code + markers)
    cuts = [(interaction.start, interaction.end) for interaction in result.interactions]
    return lesson_structure(text, protected, opaque, cuts)
