"""Finding what lies at an offset of a scanned document."""

from __future__ import annotations

from bisect import bisect_right

from mfls.syntax.model import Interaction, InvalidMarker, Marker, Reason, ScanResult
from mfls.workspace.index import CourseSnapshot, DocEntry, WorkspaceSnapshot

OPENER = 2
"""Length of `{{`: the part of an unclosed marker that stands for it in the editor."""


def document(snapshot: WorkspaceSnapshot, uri: str) -> tuple[CourseSnapshot, DocEntry] | None:
    return snapshot.entry(uri)


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
        return marker.start, min(marker.end, marker.start + OPENER)
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
    interactions = result.interactions
    index = bisect_right(interactions, offset, key=lambda x: x.start) - 1
    if index >= 0 and interactions[index].start <= offset < interactions[index].end:
        return interactions[index]
    return None


def line_number(text: str, offset: int) -> int:
    """1-based line of `offset`, counting LF, CRLF and CR as one line ending each."""
    head = text[:offset]
    return head.count("\n") + head.count("\r") - head.count("\r\n") + 1
