"""The incremental document model.

A `Document` holds its text and the scan results of its top-level units (see
`mfls.syntax.blocks.Unit`). Each unit's results are stored with the absolute offsets
they had when the unit was scanned (its *origin*); units sit in chunks with a base
offset, so an edit shifts later units by changing a few chunk bases instead of
touching every marker. `edited` reparses from the unit before the edit to the first
unit boundary after it that an old unit shares, and reuses everything from there.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from typing import NamedTuple

from mfls.syntax.blocks import Unit, iter_units
from mfls.syntax.model import (
    Block,
    Interaction,
    InvalidMarker,
    Literal,
    Marker,
    ScanResult,
)
from mfls.syntax.relocate import (
    moved_interaction,
    moved_invalid,
    moved_literal,
    moved_marker,
    shifted_block,
)
from mfls.syntax.scanner import scan_unit

_CHUNK = 64


class _Record(NamedTuple):
    """One unit's scan, in absolute offsets as of `origin` (its start when scanned)."""

    origin: int
    length: int
    result: ScanResult


class _Chunk:
    """A run of consecutive units; `starts` are relative to the chunk's base offset,
    which the document keeps in a separate list so that shifting a chunk is one int."""

    __slots__ = ("memo", "records", "starts")

    def __init__(self, starts: tuple[int, ...], records: tuple[_Record, ...]) -> None:
        self.starts = starts
        self.records = records
        self.memo: tuple[int, ScanResult] | None = None

    def markers_only(self, base: int) -> ScanResult:
        """Markers, invalid markers and interactions of the chunk's units at `base`; the
        last one made is kept, so a chunk that an edit did not move is not rebuilt."""
        memo = self.memo
        if memo is not None and memo[0] == base:
            return memo[1]
        markers: list[Marker] = []
        invalid: list[InvalidMarker] = []
        interactions: list[Interaction] = []
        for start, rec in zip(self.starts, self.records, strict=True):
            r = rec.result
            d = base + start - rec.origin
            if d == 0:
                markers.extend(r.markers)
                invalid.extend(r.invalid)
                interactions.extend(r.interactions)
            else:
                step = d.__add__
                markers.extend([moved_marker(m, step, step) for m in r.markers])
                invalid.extend([moved_invalid(i, step, step) for i in r.invalid])
                interactions.extend([moved_interaction(x, step, step) for x in r.interactions])
        result = ScanResult(tuple(markers), tuple(invalid), tuple(interactions))
        self.memo = (base, result)
        return result


class UnitView(NamedTuple):
    """A unit of a document at its current position; `shift` maps stored offsets to it."""

    start: int
    end: int
    shift: int
    record: _Record

    def result(self) -> ScanResult:
        return _shift_result(self.record.result, self.shift)


def _record(text: str, unit: Unit) -> _Record:
    return _Record(unit.start, unit.end - unit.start, scan_unit(text, unit))


def _chunks(records: list[_Record], base: int) -> tuple[list[int], list[_Chunk]]:
    bases: list[int] = []
    out: list[_Chunk] = []
    size = _CHUNK
    for k in range(0, len(records), size):
        part = tuple(records[k : k + size])
        starts = []
        total = 0
        for rec in part:
            starts.append(total)
            total += rec.length
        bases.append(base)
        out.append(_Chunk(tuple(starts), part))
        base += total
    return bases, out


# -- shifting stored results ---------------------------------------------------------------


def _shift_result(r: ScanResult, d: int) -> ScanResult:
    if d == 0:
        return r
    step = d.__add__
    return ScanResult(
        markers=tuple(moved_marker(m, step, step) for m in r.markers),
        invalid=tuple(moved_invalid(i, step, step) for i in r.invalid),
        interactions=tuple(moved_interaction(x, step, step) for x in r.interactions),
        blocks=tuple(shifted_block(b, d) for b in r.blocks),
        literals=tuple(moved_literal(lit, step, step) for lit in r.literals),
    )


_Piece = tuple[str, int, int]
_MAX_PIECES = 16
_WINDOW = 4096
_EOL = re.compile(r"\r\n|\r|\n")


def _cut(pieces: tuple[_Piece, ...], a: int, b: int) -> list[_Piece]:
    """The pieces covering [a, b) of the text that `pieces` spell."""
    out: list[_Piece] = []
    pos = 0
    for s, x, y in pieces:
        if pos >= b:
            break
        lo = max(a, pos)
        hi = min(b, pos + y - x)
        if lo < hi:
            out.append((s, x + lo - pos, x + hi - pos))
        pos += y - x
    return out


def _spell(pieces: list[_Piece] | tuple[_Piece, ...]) -> str:
    if len(pieces) == 1:
        s, x, y = pieces[0]
        return s if x == 0 and y == len(s) else s[x:y]
    return "".join([s[x:y] for s, x, y in pieces])


class Document:
    """An immutable text with its scan; `edited` returns a new document.

    The text of an edited document is kept as a few pieces of earlier texts and only
    joined into one string when `text` is first read (or when the pieces grow many),
    so an edit costs what it reparses rather than a copy of the whole text.
    """

    __slots__ = (
        "_bases",
        "_chunks",
        "_length",
        "_markers_only",
        "_pieces",
        "_result",
        "_text",
        "version",
    )

    def __init__(self, text: str, version: int | None = None) -> None:
        self._text: str | None = text
        self._pieces: tuple[_Piece, ...] = ((text, 0, len(text)),)
        self._length = len(text)
        self.version = version
        self._bases, self._chunks = _chunks([_record(text, u) for u in iter_units(text)], 0)
        self._result: ScanResult | None = None
        self._markers_only: ScanResult | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = _spell(self._pieces)
            self._pieces = ((self._text, 0, self._length),)
        return self._text

    @property
    def length(self) -> int:
        """len(self.text), without joining the pieces of an edited text."""
        return self._length

    def _slice(self, a: int, b: int) -> str:
        if self._text is not None:
            return self._text[a:b]
        return _spell(_cut(self._pieces, a, b))

    def _line_boundary(self, pos: int) -> int:
        """The start of the first line that begins at or after `pos` (or the text end)."""
        size = 256
        n = self._length
        while True:
            probe = self._slice(pos, pos + size)
            m = _EOL.search(probe)
            if m is not None and (m.end() < len(probe) or pos + len(probe) >= n):
                return pos + m.end()
            if pos + len(probe) >= n:
                return n
            size *= 4

    # -- locating units ----------------------------------------------------------------

    def _locate(self, offset: int) -> tuple[int, int]:
        """(chunk, unit) indices of the unit holding `offset` (the last one past the end)."""
        ci = max(bisect_right(self._bases, offset) - 1, 0)
        chunk = self._chunks[ci]
        ui = max(bisect_right(chunk.starts, offset - self._bases[ci]) - 1, 0)
        return ci, ui

    def _unit_starting_at(self, offset: int) -> tuple[int, int] | None:
        ci = bisect_right(self._bases, offset) - 1
        if ci < 0:
            return None
        chunk = self._chunks[ci]
        rel = offset - self._bases[ci]
        ui = bisect_left(chunk.starts, rel)
        if ui < len(chunk.starts) and chunk.starts[ui] == rel:
            return ci, ui
        return None

    def _view(self, ci: int, ui: int) -> UnitView:
        chunk = self._chunks[ci]
        rec = chunk.records[ui]
        start = self._bases[ci] + chunk.starts[ui]
        return UnitView(start, start + rec.length, start - rec.origin, rec)

    def units(self, start: int = 0, end: int | None = None) -> Iterator[UnitView]:
        """The units overlapping [start, end) (all of them by default), in order."""
        if not self._chunks:
            return
        stop = self._length if end is None else end
        ci, ui = self._locate(start)
        while ci < len(self._chunks):
            chunk = self._chunks[ci]
            while ui < len(chunk.records):
                view = self._view(ci, ui)
                if view.start >= stop and view.start > start:
                    return
                yield view
                ui += 1
            ci += 1
            ui = 0

    # -- editing -----------------------------------------------------------------------

    def edited(self, start: int, end: int, new_text: str, version: int | None = None) -> Document:
        """The document with [start, end) replaced by `new_text`."""
        n = self._length
        start = min(max(start, 0), n)
        end = min(max(end, start), n)
        delta = len(new_text) - (end - start)
        pieces = _cut(self._pieces, 0, start)
        if new_text:
            pieces.append((new_text, 0, len(new_text)))
        pieces.extend(_cut(self._pieces, end, n))
        # An empty document (scanning "" costs nothing) whose fields are then set; not
        # Document.__new__, which a mypyc-compiled class runs __init__ for.
        doc = Document("", version)
        doc._length = n + delta
        if len(pieces) > _MAX_PIECES:
            doc._text = _spell(pieces)
            doc._pieces = ((doc._text, 0, doc._length),)
        else:
            doc._text = None
            doc._pieces = tuple(pieces)
        if not self._chunks:
            text = doc.text
            doc._bases, doc._chunks = _chunks([_record(text, u) for u in iter_units(text)], 0)
            return doc
        ci, ui = self._locate(start)
        if ui > 0:
            ui -= 1
        elif ci > 0:
            ci -= 1
            ui = len(self._chunks[ci].records) - 1
        first = self._chunks[ci]
        base = self._bases[ci]
        middle = list(first.records[:ui])
        resume = doc._reparse(self, base + first.starts[ui], end + delta, delta, middle)
        if resume is None:
            bases, chunks = _chunks(middle, base)
            doc._bases = self._bases[:ci] + bases
            doc._chunks = self._chunks[:ci] + chunks
            return doc
        cj, uj = resume
        middle.extend(self._chunks[cj].records[uj:])
        bases, chunks = _chunks(middle, base)
        doc._bases = self._bases[:ci] + bases + [b + delta for b in self._bases[cj + 1 :]]
        doc._chunks = self._chunks[:ci] + chunks + self._chunks[cj + 1 :]
        return doc

    def _reparse(
        self, old: Document, restart: int, boundary: int, delta: int, out: list[_Record]
    ) -> tuple[int, int] | None:
        """Scan units from `restart` into `out` until one ends where an old unit (of `old`)
        starts, past `boundary`; return that old unit's indices, or None at the text end.

        Units are parsed from a window of the text that ends at a line boundary; a unit
        the window's end cut short is parsed again with a larger window.
        """
        n = self._length
        first = restart
        target = boundary + _WINDOW
        while True:
            w_end = n if target >= n else self._line_boundary(target)
            window = self._slice(restart, w_end)
            size = len(window)
            for unit in iter_units(window):
                if unit.end == size and w_end < n:
                    break
                out.append(_record(window, unit))
                end = restart + unit.end
                if end >= boundary:
                    resume = old._unit_starting_at(end - delta)
                    if resume is not None:
                        return resume
            else:
                return None
            restart = restart + unit.start
            target = w_end + 2 * (w_end - first)

    # -- results -----------------------------------------------------------------------

    def result(self) -> ScanResult:
        """The scan of the whole text, equal to `mfls.syntax.scanner.scan(self.text)`."""
        if self._result is None:
            markers: list[Marker] = []
            invalid: list[InvalidMarker] = []
            interactions: list[Interaction] = []
            blocks: list[Block] = []
            literals: list[Literal] = []
            for view in self.units():
                r = view.result()
                markers.extend(r.markers)
                invalid.extend(r.invalid)
                interactions.extend(r.interactions)
                blocks.extend(r.blocks)
                literals.extend(r.literals)
            self._result = ScanResult(
                tuple(markers), tuple(invalid), tuple(interactions), tuple(blocks), tuple(literals)
            )
        return self._result

    def markers_only(self) -> ScanResult:
        """`result()` without blocks and literals: the markers, invalid markers and
        interactions, built from per-chunk caches so that an edit rebuilds only the
        chunks it touched or moved."""
        if self._markers_only is None:
            if self._result is not None:
                r = self._result
                self._markers_only = ScanResult(r.markers, r.invalid, r.interactions)
            else:
                markers: list[Marker] = []
                invalid: list[InvalidMarker] = []
                interactions: list[Interaction] = []
                for base, chunk in zip(self._bases, self._chunks, strict=True):
                    part = chunk.markers_only(base)
                    markers.extend(part.markers)
                    invalid.extend(part.invalid)
                    interactions.extend(part.interactions)
                self._markers_only = ScanResult(tuple(markers), tuple(invalid), tuple(interactions))
        return self._markers_only

    def scan_between(self, start: int, end: int) -> ScanResult:
        """The results of the units overlapping [start, end), in absolute offsets."""
        parts = [view.result() for view in self.units(start, end)]
        return ScanResult(
            tuple(m for p in parts for m in p.markers),
            tuple(i for p in parts for i in p.invalid),
            tuple(x for p in parts for x in p.interactions),
            tuple(b for p in parts for b in p.blocks),
            tuple(lit for p in parts for lit in p.literals),
        )
