"""The incremental document model.

A `Document` holds its text and the scan results of its top-level units (see
`mfls.syntax.blocks.Unit`). Each unit's results are stored with the absolute offsets
they had when the unit was scanned (its *origin*); units sit in chunks with a base
offset, so an edit shifts later units by changing a few chunk bases instead of
touching every marker. `edited` reparses from the unit before the edit to the first
unit boundary after it that an old unit shares, and reuses everything from there.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

from mfls.syntax.blocks import Unit, iter_units
from mfls.syntax.model import (
    Block,
    Choice,
    Interaction,
    InvalidMarker,
    Literal,
    Marker,
    ScanResult,
)
from mfls.syntax.scanner import scan_unit

_CHUNK = 64


@dataclass(frozen=True, slots=True)
class _Record:
    """One unit's scan, in absolute offsets as of `origin` (its start when scanned)."""

    origin: int
    length: int
    result: ScanResult


class _Chunk:
    """A run of consecutive units; `starts` are relative to the chunk's base offset,
    which the document keeps in a separate list so that shifting a chunk is one int."""

    __slots__ = ("records", "starts")

    def __init__(self, starts: tuple[int, ...], records: tuple[_Record, ...]) -> None:
        self.starts = starts
        self.records = records


@dataclass(frozen=True, slots=True)
class UnitView:
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


def _shift_marker(m: Marker, d: int) -> Marker:
    return Marker(
        m.start + d, m.end + d, m.key, m.key_start + d, m.key_end + d, m.role, m.legacy, m.literal
    )


def _shift_invalid(i: InvalidMarker, d: int) -> InvalidMarker:
    return InvalidMarker(
        i.start + d, i.end + d, i.reason, i.legacy, i.hidden_markers, i.hidden_interactions
    )


def _shift_interaction(x: Interaction, d: int) -> Interaction:
    return Interaction(
        x.start + d,
        x.end + d,
        x.binding,
        x.multiple,
        tuple(Choice(c.label, c.value, c.start + d, c.end + d) for c in x.choices),
        x.input,
        None if x.binding_marker is None else _shift_marker(x.binding_marker, d),
    )


def _shift_block(b: Block, d: int) -> Block:
    return Block(
        b.kind,
        b.start + d,
        b.end + d,
        b.level,
        tuple((a + d, e + d) for a, e in b.inline),
        b.setext,
    )


def _shift_literal(lit: Literal, d: int) -> Literal:
    return Literal(lit.kind, lit.start + d, lit.end + d)


def _shift_result(r: ScanResult, d: int) -> ScanResult:
    if d == 0:
        return r
    return ScanResult(
        markers=tuple(_shift_marker(m, d) for m in r.markers),
        invalid=tuple(_shift_invalid(i, d) for i in r.invalid),
        interactions=tuple(_shift_interaction(x, d) for x in r.interactions),
        blocks=tuple(_shift_block(b, d) for b in r.blocks),
        literals=tuple(_shift_literal(lit, d) for lit in r.literals),
    )


class Document:
    """An immutable text with its scan; `edited` returns a new document."""

    __slots__ = ("_bases", "_chunks", "_result", "text", "version")

    def __init__(self, text: str, version: int | None = None) -> None:
        self.text = text
        self.version = version
        self._bases, self._chunks = _chunks([_record(text, u) for u in iter_units(text)], 0)
        self._result: ScanResult | None = None

    @classmethod
    def _assemble(
        cls, text: str, version: int | None, bases: list[int], chunks: list[_Chunk]
    ) -> Document:
        doc = cls.__new__(cls)
        doc.text = text
        doc.version = version
        doc._bases = bases
        doc._chunks = chunks
        doc._result = None
        return doc

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
        stop = len(self.text) if end is None else end
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

    def unit_at(self, offset: int) -> UnitView | None:
        if not self._chunks:
            return None
        return self._view(*self._locate(offset))

    # -- editing -----------------------------------------------------------------------

    def edited(self, start: int, end: int, new_text: str, version: int | None = None) -> Document:
        """The document with [start, end) replaced by `new_text`."""
        old = self.text
        n = len(old)
        start = min(max(start, 0), n)
        end = min(max(end, start), n)
        text = old[:start] + new_text + old[end:]
        delta = len(new_text) - (end - start)
        if not self._chunks:
            return Document(text, version)
        ci, ui = self._locate(start)
        if ui > 0:
            ui -= 1
        elif ci > 0:
            ci -= 1
            ui = len(self._chunks[ci].records) - 1
        first = self._chunks[ci]
        base = self._bases[ci]
        middle = list(first.records[:ui])
        resume: tuple[int, int] | None = None
        boundary = end + delta
        # Each parsed unit ends where the next one starts; once that start lies past the
        # edit and an old unit started at the same text, everything after is reused.
        for unit in iter_units(text, base + first.starts[ui]):
            middle.append(_record(text, unit))
            if unit.end >= boundary:
                resume = self._unit_starting_at(unit.end - delta)
                if resume is not None:
                    break
        if resume is None:
            bases, chunks = _chunks(middle, base)
            return Document._assemble(
                text, version, self._bases[:ci] + bases, self._chunks[:ci] + chunks
            )
        cj, uj = resume
        middle.extend(self._chunks[cj].records[uj:])
        bases, chunks = _chunks(middle, base)
        return Document._assemble(
            text,
            version,
            self._bases[:ci] + bases + [b + delta for b in self._bases[cj + 1 :]],
            self._chunks[:ci] + chunks + self._chunks[cj + 1 :],
        )

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

    # -- lookups at an offset ----------------------------------------------------------

    def _near(self, offset: int) -> Iterator[UnitView]:
        """The unit holding `offset` and, at a unit start, the one before it."""
        if not self._chunks:
            return
        ci, ui = self._locate(offset)
        view = self._view(ci, ui)
        if view.start == offset and ui > 0:
            yield self._view(ci, ui - 1)
        elif view.start == offset and ci > 0:
            yield self._view(ci - 1, len(self._chunks[ci - 1].records) - 1)
        yield view

    def _candidates(self, offset: int) -> Iterator[tuple[UnitView, ScanResult]]:
        for view in self._near(offset):
            yield view, view.record.result

    def marker_at(self, offset: int, inclusive_end: bool = False) -> Marker | None:
        """The valid marker whose span holds `offset` (or ends at it, if `inclusive_end`)."""
        for view, r in self._candidates(offset):
            o = offset - view.shift
            for m in r.markers:
                if m.start <= o < m.end or (inclusive_end and o == m.end):
                    return _shift_marker(m, view.shift)
        return None

    def invalid_at(self, offset: int, inclusive_end: bool = False) -> InvalidMarker | None:
        for view, r in self._candidates(offset):
            o = offset - view.shift
            for i in r.invalid:
                if i.start <= o < i.end or (inclusive_end and o == i.end):
                    return _shift_invalid(i, view.shift)
        return None

    def interaction_at(self, offset: int, inclusive_end: bool = False) -> Interaction | None:
        for view, r in self._candidates(offset):
            o = offset - view.shift
            for x in r.interactions:
                if x.start <= o < x.end or (inclusive_end and o == x.end):
                    return _shift_interaction(x, view.shift)
        return None

    def literal_at(self, offset: int) -> Literal | None:
        for view, r in self._candidates(offset):
            o = offset - view.shift
            for lit in r.literals:
                if lit.start <= o < lit.end:
                    return _shift_literal(lit, view.shift)
        return None

    def block_at(self, offset: int) -> Block | None:
        """The leaf block whose lines hold `offset` (its line end included)."""
        for view, r in self._candidates(offset):
            o = offset - view.shift
            for b in r.blocks:
                if b.start <= o <= b.end:
                    return _shift_block(b, view.shift)
        return None
