"""Moving scan results to other offsets: one copy per record type, through two maps.

`start` maps a start offset and `end` an end offset (an end maps from the character
before it, which matters where a block's inline text is stitched from several source
ranges). A plain shift by `d` passes `d.__add__` for both.
"""

from __future__ import annotations

from collections.abc import Callable

from mfls.syntax.model import (
    Block,
    Choice,
    Interaction,
    InvalidMarker,
    Literal,
    Marker,
    Operator,
    pack_operators,
)

OffsetMap = Callable[[int], int]


def moved_marker(m: Marker, start: OffsetMap, end: OffsetMap) -> Marker:
    return Marker(
        start(m.start),
        end(m.end),
        m.key,
        start(m.key_start),
        end(m.key_end),
        m.role,
        m.legacy,
        m.literal,
        m.context,
    )


def moved_invalid(i: InvalidMarker, start: OffsetMap, end: OffsetMap) -> InvalidMarker:
    return InvalidMarker(
        start(i.start), end(i.end), i.reason, i.legacy, i.hidden_markers, i.hidden_interactions
    )


def moved_interaction(x: Interaction, start: OffsetMap, end: OffsetMap) -> Interaction:
    at = start(x.start)
    return Interaction(
        at,
        end(x.end),
        x.binding,
        x.multiple,
        tuple(Choice(c.label, c.value, start(c.start), end(c.end)) for c in x.choices),
        x.input,
        None if x.binding_marker is None else moved_marker(x.binding_marker, start, end),
        **pack_operators(at, (Operator(start(o.start), end(o.end), o.kind) for o in x.operators)),
    )


def moved_literal(lit: Literal, start: OffsetMap, end: OffsetMap) -> Literal:
    return Literal(lit.kind, start(lit.start), end(lit.end))


def shifted_block(b: Block, d: int) -> Block:
    return Block(
        b.kind,
        b.start + d,
        b.end + d,
        b.level,
        tuple((a + d, e + d) for a, e in b.inline),
        b.setext,
    )
