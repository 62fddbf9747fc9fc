"""Go to binding, references and document highlights."""

from __future__ import annotations

from dataclasses import dataclass

from mfls.features.at_offset import interaction_among, marker_at
from mfls.syntax.model import Marker
from mfls.workspace.index import CourseSnapshot, DocEntry, Occurrence, WorkspaceSnapshot


@dataclass(frozen=True)
class LocationLink:
    uri: str
    target_start: int  # the binding interaction (or the marker when it has none)
    target_end: int
    selection_start: int  # the bound key
    selection_end: int
    origin_start: int  # the marker the request came from
    origin_end: int


@dataclass(frozen=True)
class Location:
    uri: str
    start: int
    end: int


@dataclass(frozen=True)
class Highlight:
    start: int
    end: int
    kind: str  # "read" | "write"


def _marker_here(
    snapshot: WorkspaceSnapshot, uri: str, offset: int
) -> tuple[CourseSnapshot, DocEntry, Marker] | None:
    """The course, the document and the marker at `offset`, when there is one."""
    found = snapshot.entry(uri)
    if found is None:
        return None
    course, entry = found
    marker = marker_at(entry.marker_scan, offset)
    return None if marker is None else (course, entry, marker)


def definition(snapshot: WorkspaceSnapshot, uri: str, offset: int) -> list[LocationLink]:
    """The interactions of the course that bind the key of the marker at `offset`."""
    found = _marker_here(snapshot, uri, offset)
    if found is None:
        return []
    course, _, marker = found
    links = []
    for binding in sorted(course.bindings.get(marker.key, ()), key=course.position):
        target = course.docs[binding.uri]
        interaction = interaction_among(target.interactions, binding.marker.start)
        start, end = (
            (interaction.start, interaction.end)
            if interaction is not None
            else (binding.marker.start, binding.marker.end)
        )
        links.append(
            LocationLink(
                binding.uri,
                start,
                end,
                binding.marker.key_start,
                binding.marker.key_end,
                marker.start,
                marker.end,
            )
        )
    return links


def _location(occurrence: Occurrence) -> Location:
    return Location(occurrence.uri, occurrence.marker.key_start, occurrence.marker.key_end)


def references(
    snapshot: WorkspaceSnapshot, uri: str, offset: int, include_declaration: bool = True
) -> list[Location]:
    """Every marker of the course with the same key (its key range), in course order."""
    found = _marker_here(snapshot, uri, offset)
    if found is None:
        return []
    course, _, marker = found
    occurrences = list(course.references.get(marker.key, ()))
    if include_declaration:
        occurrences += course.bindings.get(marker.key, ())
    occurrences.sort(key=course.position)
    return [_location(o) for o in occurrences]


def highlights(snapshot: WorkspaceSnapshot, uri: str, offset: int) -> list[Highlight]:
    """The markers of this document with the same key: bindings write, references read."""
    found = _marker_here(snapshot, uri, offset)
    if found is None:
        return []
    _, entry, marker = found
    return [
        Highlight(m.key_start, m.key_end, "write" if entry.binds(m) else "read")
        for m in entry.marker_scan.markers
        if m.key == marker.key
    ]
