"""AI-Shifu lesson structure, as markdown-flow (the SDK AI-Shifu runs) splits a lesson.

A host layer beside the scanner: it reads the same text and changes nothing the scanner
reads. markdown-flow splits a document into prompt blocks at every match of
`\\n\\s*---\\s*\\n` that overlaps no protected span (code, HTML blocks, markers), so
`text\\n---` separates blocks though CommonMark reads a setext heading. Inside a block,
a line `===text===` and the lines between two `!===` fence lines are fixed output:
shown as written, markers still substituted. A block made only of fixed output is shown
without the AI; an unclosed `!===` makes the whole block an ordinary prompt.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, NamedTuple

from mfls.syntax.model import BlockKind, ScanResult

BLOCK_SEPARATOR: Final = re.compile(r"\n\s*---\s*\n")
_FENCE: Final = re.compile(r"!={3,}\s*$")
_INLINE: Final = re.compile(r"===(.+)=== *$")


class FixedSpan(NamedTuple):
    """Fixed output: a `===text===` line or a `!===` fence (its fence lines included)."""

    start: int
    end: int
    fence: bool
    closed: bool = True


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


def lesson_structure(text: str, protected: Sequence[tuple[int, int]] = ()) -> Structure:
    """The blocks of `text`; `protected` lists the spans no separator may overlap (the
    code blocks, HTML blocks and markers the scanner found)."""
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
    blocks: list[LessonBlock] = []
    for start, end in segments:
        part = text[start:end]
        stripped = part.strip()
        if not stripped:
            continue
        first = start + len(part) - len(part.lstrip())
        last = first + len(stripped)
        fixed, spans = _fixed(text, first, last)
        blocks.append(LessonBlock(len(blocks), first, last, fixed, spans))
    return Structure(tuple(blocks), tuple(separators))


def _fixed(text: str, start: int, end: int) -> tuple[bool, tuple[FixedSpan, ...]]:
    """The fixed-output spans of one block, and whether they make all of it."""
    spans: list[FixedSpan] = []
    only_fixed = True
    has_fixed = False
    fence_start: int | None = None
    at = start
    while at <= end:
        line_end = text.find("\n", at, end)
        if line_end == -1:
            line_end = end
        line = text[at:line_end].strip()
        if _FENCE.match(line):
            has_fixed = True
            if fence_start is None:
                fence_start = at
            else:
                spans.append(FixedSpan(fence_start, line_end, fence=True))
                fence_start = None
        elif fence_start is None and line:
            match = _INLINE.match(line)
            inner = match.group(1).strip() if match else ""
            if inner and "===" not in inner:
                has_fixed = True
                spans.append(FixedSpan(at, line_end, fence=False))
            else:
                only_fixed = False
        at = line_end + 1
    if fence_start is not None:
        fence_end = text.find("\n", fence_start, end)
        spans.append(
            FixedSpan(fence_start, end if fence_end == -1 else fence_end, fence=True, closed=False)
        )
        only_fixed = False
    return has_fixed and only_fixed, tuple(spans)


def scanned_structure(text: str, result: ScanResult) -> Structure:
    """`lesson_structure` with the code blocks, HTML blocks and markers of `result`
    protected, as markdown-flow protects them."""
    protected = [
        (block.start, block.end)
        for block in result.blocks
        if block.is_code or block.kind is BlockKind.HTML_BLOCK
    ]
    protected.extend((marker.start, marker.end) for marker in result.markers)
    protected.sort()
    return lesson_structure(text, protected)
