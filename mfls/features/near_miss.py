"""Near-miss search over a course's keys: loose buckets plus a bounded edit distance.

Two keys are near when their loose forms (NFKC, case folded, without whitespace,
punctuation or invisible format characters) are equal, or within a small edit distance
of each other. The candidates are the keys of the pieces the key probes (the pigeonhole
principle: cut a loose form into three pieces; within distance 2 one piece appears
unchanged, shifted by at most 2), at most `MAX_CANDIDATES` of them. Of those, the ones
one edit away come from lookups of one-deletion variants (`one_edit`), without comparing
the key with each; only a key with none of them at one edit compares candidates, in
order, until the first at two edits.
"""

from __future__ import annotations

import unicodedata
from bisect import insort
from collections.abc import Iterable
from functools import lru_cache
from typing import NamedTuple

from mfls.features.one_edit import OneEditIndex

PIECES = 3
MIN_FUZZY_LENGTH = 4
MEMO_SIZE = 50_000
"""Answers remembered per index (an index never changes, so they stay true; `updated`
hands the ones that still hold to the next index)."""
MAX_CANDIDATES = 400
"""At most this many keys are compared by edit distance per lookup, rarest pieces first
(of a piece shared by more, the first in sorted order)."""
FEW_CANDIDATES = 24
"""Up to this many candidates are each compared with the key; more are looked up in the
one-edit index (whose tables cost about as much to make as comparing a few dozen)."""


def _dropped(char: str) -> bool:
    """Whitespace, punctuation and invisible format or control characters."""
    category = unicodedata.category(char)
    return char.isspace() or category[0] in "PZ" or category in ("Cf", "Cc")


_ASCII_DROP = str.maketrans("", "", "".join(c for c in map(chr, range(128)) if _dropped(c)))


@lru_cache(maxsize=65536)
def loose(key: str) -> str:
    """NFKC, case folded, without whitespace, punctuation or invisible characters."""
    if key.isascii():
        return key.lower().translate(_ASCII_DROP)
    folded = unicodedata.normalize("NFKC", key).casefold()
    return "".join(c for c in folded if not _dropped(c))


def threshold(length: int) -> int:
    if length < MIN_FUZZY_LENGTH:
        return 0
    return 1 if length < 10 else 2


def _cuts(length: int) -> list[tuple[int, int]]:
    bounds = [length * i // PIECES for i in range(PIECES + 1)]
    return [(bounds[i], bounds[i + 1]) for i in range(PIECES)]


@lru_cache(maxsize=1024)
def _probes(length: int, limit: int) -> tuple[tuple[int, int, int, int], ...]:
    """The piece slots a loose form of `length` probes: (a length within `limit`, a piece
    of it, where in the form that piece may lie: shifted by at most `limit`)."""
    probes = []
    for other in range(length - limit, length + limit + 1):
        if other < MIN_FUZZY_LENGTH:
            continue
        for index, (start, end) in enumerate(_cuts(other)):
            for shift in range(-limit, limit + 1):
                at = start + shift
                if at >= 0 and at + end - start <= length:
                    probes.append((other, index, at, at + end - start))
    return tuple(probes)


def bounded_distance(a: str, b: str, limit: int) -> int | None:
    """Levenshtein distance of `a` and `b` if it is at most `limit`, else None."""
    if abs(len(a) - len(b)) > limit:
        return None
    head = 0
    while head < len(a) and head < len(b) and a[head] == b[head]:
        head += 1
    a, b = a[head:], b[head:]
    tail = 0
    while tail < len(a) and tail < len(b) and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    if tail:
        a, b = a[:-tail], b[:-tail]
    if not a or not b:
        return len(a) + len(b) if len(a) + len(b) <= limit else None
    over = limit + 1
    previous = list(range(len(b) + 1))
    for i, char in enumerate(a, 1):
        low = max(1, i - limit)
        high = min(len(b), i + limit)
        current = [over] * (len(b) + 1)
        if low == 1:
            current[0] = i
        best = current[low - 1]
        for j in range(low, high + 1):
            value = previous[j - 1] if char == b[j - 1] else previous[j - 1] + 1
            up = previous[j] + 1
            if up < value:
                value = up
            left = current[j - 1] + 1
            if left < value:
                value = left
            current[j] = value
            if value < best:
                best = value
        if best > limit:
            return None
        previous = current
    return previous[len(b)] if previous[len(b)] <= limit else None


def _piece_slots(form: str) -> list[tuple[int, int, str]]:
    """The piece slots of a loose form (none below `MIN_FUZZY_LENGTH`)."""
    if len(form) < MIN_FUZZY_LENGTH:
        return []
    return [(len(form), i, form[a:b]) for i, (a, b) in enumerate(_cuts(len(form)))]


class Near(NamedTuple):
    key: str
    distance: int  # 0: equal loose forms


class NearMissIndex:
    """Immutable once built; `updated` returns a new index sharing untouched buckets.

    A piece's keys are kept sorted, so a lookup takes the first `MAX_CANDIDATES` of a
    crowded piece without reading the rest."""

    def __init__(
        self,
        keys: frozenset[str],
        buckets: dict[str, frozenset[str]],
        pieces: dict[tuple[int, int, str], tuple[str, ...]],
        edits: OneEditIndex,
    ) -> None:
        self.keys = keys
        self._buckets = buckets
        self._pieces = pieces
        self._edits = edits
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
            OneEditIndex.build(form for form in buckets if len(form) >= MIN_FUZZY_LENGTH),
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
        gone: set[str] = set()  # loose forms whose bucket went
        new: set[str] = set()  # and came
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
                    gone.add(form)
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
                if form not in buckets:
                    new.add(form)
                buckets[form] = buckets.get(form, frozenset()) | {key}
                for slot in _piece_slots(form):
                    group = list(pieces.get(slot, ()))
                    insort(group, key)
                    pieces[slot] = tuple(group)
        fuzzy = [form for form in gone ^ new if len(form) >= MIN_FUZZY_LENGTH]
        edits = self._edits.updated(
            [form for form in fuzzy if form in new], [form for form in fuzzy if form in gone]
        )
        return NearMissIndex(frozenset(keys), buckets, pieces, edits)

    def nearest(self, key: str) -> Near | None:
        """The best other key near `key`: equal loose form first, then the smallest edit."""
        if key in self._memo:
            return self._memo[key]
        found = self._nearest(key)
        if len(self._memo) < MEMO_SIZE:
            self._memo[key] = found
        return found

    def _nearest(self, key: str) -> Near | None:
        """Equal loose forms first (the first key in order); else, of the candidates,
        those one edit away, then those two: the first in order at the least distance."""
        form = loose(key)
        if not form:
            return None
        same = sorted(k for k in self._buckets.get(form, ()) if k != key)
        if same:
            return Near(same[0], 0)
        limit = threshold(len(form))
        if limit == 0:
            return None
        found = self._candidates(form, limit)
        found.discard(key)
        if len(found) <= FEW_CANDIDATES:
            return _closest(form, limit, found)
        near = self._edits.neighbours(form)
        if near is None:  # too many keys of its lengths to keep their variants
            return _closest(form, limit, found)
        buckets = self._buckets
        one = [k for other in near for k in buckets[other] if k in found]
        if one:
            return Near(min(one), 1)
        if limit < 2:
            return None
        for candidate in sorted(found):
            other = loose(candidate)
            if threshold(len(other)) == 2 and bounded_distance(form, other, 2) is not None:
                return Near(candidate, 2)  # none is one edit away
        return None

    def _candidates(self, form: str, limit: int) -> set[str]:
        """The keys of the pieces `form` probes, the least shared pieces first, as long as
        they come to at most `MAX_CANDIDATES` (of a piece shared by more, the first)."""
        pieces = self._pieces
        groups: list[tuple[str, ...]] = []
        for length, index, start, end in _probes(len(form), limit):
            group = pieces.get((length, index, form[start:end]))
            if group:
                groups.append(group)
        found: set[str] = set()
        for group in sorted(groups, key=len):
            if found and len(found) + len(group) > MAX_CANDIDATES:
                break
            found.update(group[:MAX_CANDIDATES])
        return found


def _closest(form: str, limit: int, candidates: Iterable[str]) -> Near | None:
    """The first of `candidates` in order at the least distance from `form`, each compared."""
    best: Near | None = None
    for candidate in sorted(candidates):
        other = loose(candidate)
        distance = bounded_distance(form, other, min(limit, threshold(len(other))))
        if distance is not None and (best is None or distance < best.distance):
            best = Near(candidate, distance)
            if distance == 1:
                break
    return best
