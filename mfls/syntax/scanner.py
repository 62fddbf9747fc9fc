"""The scanner glue: block structure -> inline texts -> results in source offsets."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from typing import Protocol, TypeVar

from mfls.syntax.blocks import Unit, iter_units
from mfls.syntax.inline import InlineMode, read_inline_into, scan_inline_at
from mfls.syntax.model import (
    Block,
    BlockKind,
    Context,
    Interaction,
    InvalidMarker,
    Literal,
    LiteralKind,
    Marker,
    ScanResult,
)
from mfls.syntax.relocate import moved_interaction, moved_invalid, moved_literal, moved_marker

_Ranges = tuple[tuple[int, int], ...]


class _OffsetMap:
    """Maps offsets of a block's inline text back to the source through its ranges."""

    __slots__ = ("_ranges", "_starts")

    def __init__(self, ranges: _Ranges):
        self._ranges = ranges
        starts = []
        total = 0
        for a, b in ranges:
            starts.append(total)
            total += b - a
        self._starts = starts

    def start(self, offset: int) -> int:
        k = bisect_right(self._starts, offset) - 1
        return self._ranges[k][0] + offset - self._starts[k]

    def end(self, offset: int) -> int:
        """An end offset maps from the character before it, so it stays in its range."""
        if offset == 0:
            return self._ranges[0][0]
        return self.start(offset - 1) + 1


def _inline_text(text: str, ranges: _Ranges) -> str:
    if len(ranges) == 1:
        a, b = ranges[0]
        return text[a:b]
    return "".join(text[a:b] for a, b in ranges)


_Mode = tuple[InlineMode, LiteralKind | None, Context | None]
_SURROUNDING: _Mode = (InlineMode.MARKDOWN, None, None)
_ORDINARY_HTML: _Mode = (InlineMode.HTML, None, None)
_INFO_STRING: _Mode = (InlineMode.LITERAL, LiteralKind.INFO_STRING, Context.INFO_STRING)
_RAW_HTML: _Mode = (InlineMode.LITERAL, None, Context.HTML_BLOCK)
_RAW_COMMENT: _Mode = (InlineMode.LITERAL, None, Context.HTML_COMMENT)
_DEFINITION: _Mode = (
    InlineMode.LITERAL,
    LiteralKind.LINK_REFERENCE_DEFINITION,
    Context.LINK_DEFINITION,
)


def _mode(block: Block) -> _Mode | None:
    """How a block's inline text is read: the mode, and for a text that is one literal
    context as a whole, its kind and the context of its markers."""
    kind = block.kind
    if kind is BlockKind.PARAGRAPH or kind is BlockKind.HEADING:
        return _SURROUNDING
    if kind is BlockKind.HTML_BLOCK:
        if block.level >= 6:
            return _ORDINARY_HTML
        # docs/syntax.md rules 10 and 16: a raw block's complete valid markers are literal.
        return _RAW_COMMENT if block.level == 2 else _RAW_HTML
    if kind is BlockKind.FENCED_CODE:
        return _INFO_STRING
    if kind is BlockKind.LINK_REFERENCE_DEFINITION:
        return _DEFINITION
    return None


class _Collector:
    __slots__ = ("interactions", "invalid", "literals", "markers", "sink")

    def __init__(self) -> None:
        self.markers: list[Marker] = []
        self.invalid: list[InvalidMarker] = []
        self.interactions: list[Interaction] = []
        self.literals: list[Literal] = []
        self.sink = (self.markers, self.invalid, self.interactions, self.literals)

    def add_block(self, text: str, block: Block) -> None:
        if not block.inline:
            return
        picked = _mode(block)
        if picked is None:
            return
        mode, whole, context = picked
        ranges = block.inline
        inline = _inline_text(text, ranges)
        if not inline:
            return
        if len(ranges) == 1:
            base = ranges[0][0]
            if whole is not None:
                self.literals.append(Literal(kind=whole, start=base, end=base + len(inline)))
                if "{{" not in inline:
                    return
            read_inline_into(inline, mode, base, self.sink, context)
            return
        offsets = _OffsetMap(ranges)
        start = offsets.start
        end = offsets.end
        if whole is not None:
            self.literals.append(Literal(kind=whole, start=start(0), end=end(len(inline))))
            if "{{" not in inline:
                return
        found = scan_inline_at(inline, mode, 0, context)
        self.markers.extend(moved_marker(m, start, end) for m in found.markers)
        self.invalid.extend(moved_invalid(i, start, end) for i in found.invalid)
        self.interactions.extend(moved_interaction(x, start, end) for x in found.interactions)
        self.literals.extend(moved_literal(lit, start, end) for lit in found.literals)

    def markers_result(self) -> ScanResult:
        return ScanResult(
            markers=_by_start(self.markers),
            invalid=_by_start(self.invalid),
            interactions=_by_start(self.interactions),
        )

    def result(self, blocks: tuple[Block, ...]) -> ScanResult:
        return ScanResult(
            markers=_by_start(self.markers),
            invalid=_by_start(self.invalid),
            interactions=_by_start(self.interactions),
            blocks=blocks,
            literals=_by_start(self.literals),
        )


class _Spanned(Protocol):
    @property
    def start(self) -> int: ...


_T = TypeVar("_T", bound=_Spanned)


def _by_start(items: list[_T]) -> tuple[_T, ...]:
    for k in range(1, len(items)):
        if items[k - 1].start > items[k].start:
            return tuple(sorted(items, key=lambda item: item.start))
    return tuple(items)


def scan_blocks(text: str, blocks: Iterable[Block]) -> ScanResult:
    """Scan the inline texts of `blocks` (absolute offsets into `text`)."""
    collected = _Collector()
    kept = tuple(blocks)
    for block in kept:
        collected.add_block(text, block)
    return collected.result(kept)


def scan_unit(text: str, unit: Unit) -> ScanResult:
    """Everything one top-level unit holds, in absolute offsets into `text`."""
    return scan_blocks(text, unit.blocks)


def scan(text: str) -> ScanResult:
    """Scan a whole document."""
    collected = _Collector()
    blocks: list[Block] = []
    for unit in iter_units(text):
        blocks.extend(unit.blocks)
        for block in unit.blocks:
            collected.add_block(text, block)
    return collected.result(tuple(blocks))


def scan_markers(text: str) -> ScanResult:
    """`scan(text)` without blocks and literals: the markers, invalid markers and
    interactions, which is all a closed document keeps (equal to those of `scan`)."""
    collected = _Collector()
    for unit in iter_units(text):
        for block in unit.blocks:
            collected.add_block(text, block)
    return collected.markers_result()
