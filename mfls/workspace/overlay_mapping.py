"""`Layered`: an immutable mapping that shares a large base and keeps recent changes in a
small overlay, so deriving a changed copy costs the size of the overlay, not the base."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Final, Generic, TypeVar, overload

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")

GONE: Final = object()
"""Stands for a removed key in `Layered.updated`."""

_ABSENT: Final = object()

FLATTEN_AT: Final = 512
"""Once the overlay holds this many keys, the next update merges it into a new base."""


class Layered(Mapping[K, V], Generic[K, V]):
    __slots__ = ("_base", "_delta", "_length")

    def __init__(
        self, base: Mapping[K, V], delta: dict[K, object] | None = None, length: int = -1
    ) -> None:
        self._base = base
        self._delta: dict[K, object] = delta or {}
        self._length = len(base) if length < 0 else length

    def __getitem__(self, key: K) -> V:
        delta = self._delta
        if key in delta:
            value = delta[key]
            if value is GONE:
                raise KeyError(key)
            # The overlay holds values or GONE, and GONE was ruled out.
            return value  # type: ignore[return-value]
        return self._base[key]

    @overload
    def get(self, key: K, /) -> V | None: ...
    @overload
    def get(self, key: K, default: V | T, /) -> V | T: ...
    def get(self, key: K, default: object = None) -> object:
        # Mapping.get would go through __getitem__ and a KeyError for each missing key.
        delta = self._delta
        if delta:
            value = delta.get(key, _ABSENT)
            if value is not _ABSENT:
                return default if value is GONE else value
        return self._base.get(key, default)

    def __contains__(self, key: object) -> bool:
        delta = self._delta
        if key in delta:
            return delta[key] is not GONE
        return key in self._base

    def __iter__(self) -> Iterator[K]:
        delta = self._delta
        for key in self._base:
            if delta.get(key) is not GONE:
                yield key
        for key, value in delta.items():
            if value is not GONE and key not in self._base:
                yield key

    def __len__(self) -> int:
        return self._length

    def updated(self, changes: Mapping[K, object]) -> Layered[K, V]:
        """A new mapping with `changes` applied (a value of `GONE` removes the key)."""
        if not changes:
            return self
        length = self._length
        for key, value in changes.items():
            present = key in self
            if value is GONE:
                length -= present
            elif not present:
                length += 1
        delta = dict(self._delta)
        delta.update(changes)
        if len(delta) < FLATTEN_AT:
            return Layered(self._base, delta, length)
        base = dict(self._base)
        for key, value in delta.items():
            if value is GONE:
                base.pop(key, None)
            else:
                # The overlay holds values or GONE, and GONE was ruled out.
                base[key] = value  # type: ignore[assignment]
        return Layered(base, None, len(base))
