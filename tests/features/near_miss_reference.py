"""The near-miss search as it was before the one-edit index (commit f6eb3ba): the
reference `tests/features/test_near_miss_differential.py` compares
`mfls.features.near_miss` with. Kept as it was; do not fix it here. Its loose forms,
distance and piece slots are `mfls.features.near_miss`'s, unchanged by that commit.

Near-miss search over a course's keys: loose buckets plus a bounded edit distance.

Two keys are near when their loose forms (NFKC, case folded, without whitespace,
punctuation or invisible format characters) are equal, or within a small edit distance
of each other. The distance search uses the pigeonhole principle: cut a loose form into
three pieces; within distance 2 one piece appears unchanged, shifted by at most 2.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable

# What the one-edit index left as it was is shared, not copied: only the search differs.
from mfls.features.near_miss import (
    MAX_CANDIDATES,
    MEMO_SIZE,
    MIN_FUZZY_LENGTH,
    Near,
    _cuts,
    _piece_slots,
    bounded_distance,
    loose,
    threshold,
)


class NearMissIndex:
    """Immutable once built; `updated` returns a new index sharing untouched buckets.

    A piece's keys are kept sorted, so a lookup takes the first `MAX_CANDIDATES` of a
    crowded piece without reading the rest."""

    def __init__(
        self,
        keys: frozenset[str],
        buckets: dict[str, frozenset[str]],
        pieces: dict[tuple[int, int, str], tuple[str, ...]],
    ) -> None:
        self.keys = keys
        self._buckets = buckets
        self._pieces = pieces
        self._memo: dict[str, Near | None] = {}

    @staticmethod
    def build(keys: Iterable[str]) -> NearMissIndex:
        buckets: dict[str, set[str]] = {}
        pieces: dict[tuple[int, int, str], list[str]] = {}
        unique = frozenset(keys)
        for key in unique:
            form = loose(key)
            if form:
                buckets.setdefault(form, set()).add(key)
                for slot in _piece_slots(form):
                    pieces.setdefault(slot, []).append(key)
        return NearMissIndex(
            unique,
            {slot: frozenset(found) for slot, found in buckets.items()},
            {slot: tuple(sorted(found)) for slot, found in pieces.items()},
        )

    def updated(self, added: Iterable[str], removed: Iterable[str]) -> NearMissIndex:
        """The index with `added` keys and without `removed` ones; itself when that changes
        nothing. The new index keeps the remembered answers no changed key can alter."""
        keys = self.keys
        removed = [key for key in removed if key in keys]
        gone = set(removed)
        added = [key for key in added if key not in keys or key in gone]
        if not added and not removed:
            return self
        index = self._changed(added, removed)
        index._memo = self._kept_memo((*added, *removed))
        return index

    def _kept_memo(self, changed: Iterable[str]) -> dict[str, Near | None]:
        """The remembered answers that hold whatever `changed` keys were added or removed.

        An answer for `key` reads only the bucket of its loose form and the piece slots
        it probes (lengths within its threshold, pieces of its loose form); a changed key
        touches its own bucket and its own slots. An answer is kept when no changed key
        can touch what it read: another loose form, and a length out of reach or no piece
        inside `key`'s loose form (a test looser than the probe, so never unsafe)."""
        forms = {form for form in map(loose, changed) if form}
        sliced = [
            (len(form), [form[a:b] for a, b in _cuts(len(form))])
            for form in forms
            if len(form) >= MIN_FUZZY_LENGTH
        ]
        kept: dict[str, Near | None] = {}
        for key, answer in list(self._memo.items()):  # a copy: lookups may add meanwhile
            form = loose(key)
            if form in forms:
                continue
            limit = threshold(len(form))
            if limit and any(
                abs(length - len(form)) <= limit and any(piece in form for piece in pieces)
                for length, pieces in sliced
            ):
                continue
            kept[key] = answer
        return kept

    def _changed(self, added: Iterable[str], removed: Iterable[str]) -> NearMissIndex:
        buckets = dict(self._buckets)
        pieces = dict(self._pieces)
        keys = set(self.keys)
        for key in removed:
            if key in keys:
                keys.discard(key)
                form = loose(key)
                if not form:
                    continue
                remaining = buckets[form] - {key}
                if remaining:
                    buckets[form] = remaining
                else:
                    del buckets[form]
                for slot in _piece_slots(form):
                    left = tuple(k for k in pieces[slot] if k != key)
                    if left:
                        pieces[slot] = left
                    else:
                        del pieces[slot]
        for key in added:
            if key not in keys:
                keys.add(key)
                form = loose(key)
                if not form:
                    continue
                buckets[form] = buckets.get(form, frozenset()) | {key}
                for slot in _piece_slots(form):
                    group = list(pieces.get(slot, ()))
                    insort(group, key)
                    pieces[slot] = tuple(group)
        return NearMissIndex(frozenset(keys), buckets, pieces)

    def nearest(self, key: str) -> Near | None:
        """The best other key near `key`: equal loose form first, then the smallest edit."""
        if key in self._memo:
            return self._memo[key]
        found = self._nearest(key)
        if len(self._memo) < MEMO_SIZE:
            self._memo[key] = found
        return found

    def _nearest(self, key: str) -> Near | None:
        form = loose(key)
        if not form:
            return None
        same = sorted(k for k in self._buckets.get(form, ()) if k != key)
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
                        group = self._pieces.get((length, index, form[at : at + size]))
                        if group:
                            groups.append(group)
        found: set[str] = set()
        for group in sorted(groups, key=len):
            if found and len(found) + len(group) > MAX_CANDIDATES:
                break
            found.update(group[:MAX_CANDIDATES])
        best: Near | None = None
        for candidate in sorted(found):
            if candidate == key:
                continue
            other = loose(candidate)
            distance = bounded_distance(form, other, min(limit, threshold(len(other))))
            if distance is not None and (best is None or distance < best.distance):
                best = Near(candidate, distance)
                if distance == 1:
                    break
        return best
