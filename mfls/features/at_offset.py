"""Finding what lies at an offset of a scanned document."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from mfls.syntax.model import Interaction, InvalidMarker, Marker, Reason, ScanResult


def marker_at(result: ScanResult, offset: int) -> Marker | None:
    """The valid marker whose span holds `offset` (its end included, for a cursor after it)."""
    markers = result.markers
    index = bisect_right(markers, offset, key=lambda m: m.start) - 1
    while index >= 0:
        marker = markers[index]
        if marker.start <= offset <= marker.end:
            return marker
        if marker.end < offset:
            return None
        index -= 1
    return None


def invalid_span(marker: InvalidMarker) -> tuple[int, int]:
    """Where an invalid marker is shown: all of it, or only the `{{` of an unclosed one."""
    if marker.reason is Reason.UNCLOSED:
        return marker.opening
    return marker.start, marker.end


def invalid_at(result: ScanResult, offset: int) -> InvalidMarker | None:
    for marker in result.invalid:
        start, end = invalid_span(marker)
        if start <= offset <= end:
            return marker
        if start > offset:
            return None
    return None


def interaction_of(result: ScanResult, offset: int) -> Interaction | None:
    return interaction_among(result.interactions, offset)


def interaction_among(interactions: Sequence[Interaction], offset: int) -> Interaction | None:
    """The interaction (of `interactions`, by start) that holds `offset`, or None."""
    index = bisect_right(interactions, offset, key=lambda x: x.start) - 1
    if index >= 0 and interactions[index].start <= offset < interactions[index].end:
        return interactions[index]
    return None
