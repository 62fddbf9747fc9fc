"""The near-miss search as it was before the one-edit index (commit f6eb3ba): the
reference `tests/features/test_near_miss_differential.py` compares
`mfls.features.near_miss` with. Kept as it was; do not fix it here. What that commit left
as it was is not copied: the loose forms, the distance, and the buckets and pieces an
index builds and updates, and the comparison of candidates (`_closest`) are
`mfls.features.near_miss`'s; only the search (`_nearest`: which candidates, all of them
compared, no one-edit index) is the old one.

Near-miss search over a course's keys: loose buckets plus a bounded edit distance.

Two keys are near when their loose forms (NFKC, case folded, without whitespace,
punctuation or invisible format characters) are equal, or within a small edit distance
of each other. The distance search uses the pigeonhole principle: cut a loose form into
three pieces; within distance 2 one piece appears unchanged, shifted by at most 2.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from mfls.features import near_miss
from mfls.features.near_miss import (
    MAX_CANDIDATES,
    MIN_FUZZY_LENGTH,
    Near,
    _closest,
    _cuts,
    loose,
    threshold,
)


class NearMissIndex:
    """`mfls.features.near_miss.NearMissIndex`'s buckets and pieces, searched the old way."""

    def __init__(self, index: near_miss.NearMissIndex) -> None:
        self._index = index

    @staticmethod
    def build(keys: Iterable[str]) -> NearMissIndex:
        return NearMissIndex(near_miss.NearMissIndex.build(keys))

    def updated(self, added: Iterable[str], removed: Iterable[str]) -> NearMissIndex:
        return NearMissIndex(self._index.updated(added, removed))

    def nearest(self, key: str) -> Near | None:
        """The best other key near `key`: equal loose form first, then the smallest edit."""
        return _nearest(self._index._buckets, self._index._pieces, key)


def _nearest(
    buckets: Mapping[str, frozenset[str]],
    pieces: Mapping[tuple[int, int, str], tuple[str, ...]],
    key: str,
) -> Near | None:
    form = loose(key)
    if not form:
        return None
    same = sorted(k for k in buckets.get(form, ()) if k != key)
    if same:
        return Near(same[0], 0)
    limit = threshold(len(form))
    if limit == 0:
        return None
    groups: list[tuple[str, ...]] = []
    for length in range(len(form) - limit, len(form) + limit + 1):
        if length < MIN_FUZZY_LENGTH:
            continue
        for index, (start, end) in enumerate(_cuts(length)):
            size = end - start
            for shift in range(-limit, limit + 1):
                at = start + shift
                if at >= 0 and at + size <= len(form):
                    group = pieces.get((length, index, form[at : at + size]))
                    if group:
                        groups.append(group)
    found: set[str] = set()
    for group in sorted(groups, key=len):
        if found and len(found) + len(group) > MAX_CANDIDATES:
            break
        found.update(group[:MAX_CANDIDATES])
    found.discard(key)
    return _closest(form, limit, found)  # every candidate compared, as before
