"""One document's markers grouped by key: those that bind and those that read.

The index builds this for every document of a course (a dense course has a marker per
170 bytes), so it lives here, compiled with the scanner."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from mfls.syntax.model import Marker, Role


class KeyGroups(NamedTuple):
    bindings: dict[str, tuple[Marker, ...]]  # key -> its binding markers, in text order
    references: dict[str, tuple[Marker, ...]]  # key -> every other marker of it
    first_binding: dict[str, int]  # key -> ordinal (among all markers) of its first binding


def group_by_key(
    markers: Sequence[Marker], binds: Callable[[Marker], bool] | None = None
) -> KeyGroups:
    """`markers` by key; `binds`, when given, decides which binding markers really bind
    (a runtime's rule): the others count as references."""
    bindings: dict[str, list[Marker]] = {}
    references: dict[str, list[Marker]] = {}
    first: dict[str, int] = {}
    binding = Role.BINDING
    for ordinal, marker in enumerate(markers):
        key = marker.key
        if marker.role is binding and (binds is None or binds(marker)):
            found = bindings.get(key)
            if found is None:
                bindings[key] = [marker]
                first[key] = ordinal
            else:
                found.append(marker)
        else:
            found = references.get(key)
            if found is None:
                references[key] = [marker]
            else:
                found.append(marker)
    return KeyGroups(
        {key: tuple(group) for key, group in bindings.items()},
        {key: tuple(group) for key, group in references.items()},
        first,
    )
