"""Invariants every `ScanResult` must satisfy, whatever text it was scanned from.

`check_result(text, result)` raises AssertionError naming the broken invariant. Shared by
the hypothesis tests and the atheris harness.
"""

from __future__ import annotations

import itertools

from mfls.syntax.keys import CLOSING_SEQUENCE, LINE_BREAKS, is_valid_key, normalize_key
from mfls.syntax.model import Reason, ScanResult

MARKER_OPENERS = ("{{", "%{{")


def _in_range(text: str, start: int, end: int, what: str) -> None:
    assert 0 <= start <= end <= len(text), f"{what} [{start}, {end}) outside 0..{len(text)}"


def _disjoint(spans: list[tuple[int, int]], what: str) -> None:
    ordered = sorted(spans)
    for (a0, a1), (b0, b1) in itertools.pairwise(ordered):
        assert a1 <= b0, f"{what} overlap: [{a0}, {a1}) and [{b0}, {b1})"


def _sorted_by_start(starts: list[int], what: str) -> None:
    assert starts == sorted(starts), f"{what} not sorted by start"


def check_markers(text: str, result: ScanResult) -> None:
    for m in result.markers:
        _in_range(text, m.start, m.end, "marker")
        source = text[m.start : m.end]
        opener = "%{{" if m.legacy else "{{"
        assert source.startswith(opener), f"marker text {source!r} does not start with {opener}"
        assert source.endswith("}}") and len(source) >= len(opener) + 2, (
            f"marker text {source!r} does not end with }}}}"
        )
        assert m.start + len(opener) <= m.key_start <= m.key_end <= m.end - 2, (
            f"key range [{m.key_start}, {m.key_end}) outside marker {source!r}"
        )
        assert is_valid_key(m.key), f"invalid key {m.key!r} reported as valid"
        assert normalize_key(m.key) == (m.key, None)
        assert CLOSING_SEQUENCE not in m.key
        assert text[m.key_start : m.key_end] == m.key, (
            f"key {m.key!r} is not the source text {text[m.key_start : m.key_end]!r}"
        )
        body = source[len(opener) : -2]
        if not any(ch in LINE_BREAKS for ch in source):
            # One line: no container prefix can sit inside, so the key is the body's.
            assert normalize_key(body) == (m.key, None), f"{body!r} does not give {m.key!r}"
        if m.legacy:
            assert m.role.value == "binding", "a legacy marker that does not bind"
    _sorted_by_start([m.start for m in result.markers], "markers")
    _disjoint([(m.start, m.end) for m in result.markers], "markers")


def check_invalid(text: str, result: ScanResult) -> None:
    for i in result.invalid:
        _in_range(text, i.start, i.end, "invalid marker")
        source = text[i.start : i.end]
        assert source.startswith("{{"), f"invalid marker {source!r} does not start with {{{{"
        if i.reason is Reason.UNCLOSED:
            # Container prefixes never hold `}`: a `}}` in the source is one in the text.
            assert "}}" not in source[2:], f"unclosed marker {source!r} holds a closing }}}}"
        else:
            assert source.endswith("}}") and len(source) >= 4, f"{source!r} is not closed"
            key, reason = normalize_key(source[2:-2])
            if not any(ch in LINE_BREAKS for ch in source):
                assert key is None and reason is i.reason, (
                    f"{source!r} reported {i.reason.value}, normalization says {reason}"
                )
    _sorted_by_start([i.start for i in result.invalid], "invalid markers")
    _disjoint([(i.start, i.end) for i in result.invalid], "invalid markers")
    _disjoint(
        [(m.start, m.end) for m in result.markers if not m.legacy]
        + [(m.start + 1, m.end) for m in result.markers if m.legacy]
        + [(i.start, i.end) for i in result.invalid],
        "valid and invalid markers",
    )


def check_interactions(text: str, result: ScanResult) -> None:
    for x in result.interactions:
        _in_range(text, x.start, x.end, "interaction")
        source = text[x.start : x.end]
        assert source.startswith("?[") and source.endswith("]"), f"interaction {source!r}"
        assert (x.binding is None) == (x.binding_marker is None)
        if x.binding_marker is not None:
            b = x.binding_marker
            assert b.key == x.binding and b.role.value == "binding"
            assert x.start + 2 <= b.start < b.end <= x.end - 1
            assert b in result.markers, "a binding marker missing from the markers"
        for c in x.choices:
            assert x.start + 2 <= c.start <= c.end <= x.end - 1, f"choice {c} outside {x}"
    _sorted_by_start([x.start for x in result.interactions], "interactions")
    _disjoint([(x.start, x.end) for x in result.interactions], "interactions")
    for m in result.markers:
        for x in result.interactions:
            inside = x.start <= m.start and m.end <= x.end
            outside = m.end <= x.start or x.end <= m.start
            assert inside or outside, f"marker {m} straddles interaction {x}"
            if m.role.value == "binding" and inside:
                assert x.binding_marker == m, f"binding {m} is not the binding of {x}"
    for m in result.markers:
        if m.role.value == "binding":
            assert any(x.binding_marker == m for x in result.interactions), (
                f"binding marker {m} belongs to no interaction"
            )
        if m.literal:
            assert m.role.value == "reference", "a literal marker binds"


def check_blocks(text: str, result: ScanResult) -> None:
    previous_end = 0
    for block in result.blocks:
        _in_range(text, block.start, block.end, "block")
        assert block.start >= previous_end, f"block {block} overlaps the previous block"
        previous_end = block.end
        last = block.start
        for a, b in block.inline:
            _in_range(text, a, b, "inline range")
            assert block.start <= a and b <= block.end, f"inline range outside {block}"
            assert a >= last, f"inline ranges of {block} out of order"
            last = b


def check_literals(text: str, result: ScanResult) -> None:
    for lit in result.literals:
        _in_range(text, lit.start, lit.end, "literal")


def check_result(text: str, result: ScanResult) -> None:
    check_markers(text, result)
    check_invalid(text, result)
    check_interactions(text, result)
    check_blocks(text, result)
    check_literals(text, result)
