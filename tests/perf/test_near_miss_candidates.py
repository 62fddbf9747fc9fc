"""A near-miss lookup compares at most `MAX_CANDIDATES` keys, however crowded the pieces
of its key are (every piece of `goals of 98` is shared by thousands of `goal N` keys)."""

from __future__ import annotations

import pytest

from mfls.features import near_miss
from mfls.features.near_miss import MAX_CANDIDATES, NearMissIndex


def test_crowded_pieces_compare_a_bounded_number_of_keys(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compared = 0
    distance = near_miss.bounded_distance

    def counted(a: str, b: str, limit: int) -> int | None:
        nonlocal compared
        compared += 1
        return distance(a, b, limit)

    monkeypatch.setattr(near_miss, "bounded_distance", counted)
    keys = [f"goal {n}" for n in range(4000)]
    built = NearMissIndex.build(keys)
    grown = NearMissIndex.build(keys[:10]).updated(keys[10:], ())
    most = 0
    for index in (built, grown):
        for n in range(200):
            compared = 0
            index.nearest(f"goals of {n}")
            most = max(most, compared)
    assert 0 < most <= MAX_CANDIDATES
    assert built.nearest("goal 12x") == grown.nearest("goal 12x")
