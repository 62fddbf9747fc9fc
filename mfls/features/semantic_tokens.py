"""Semantic tokens: markers and interaction operators, as absolute code point spans."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mfls.features.at_offset import invalid_span
from mfls.syntax.model import Role, ScanResult
from mfls.workspace.hosts import HostProfile
from mfls.workspace.index import WorkspaceSnapshot

TOKEN_TYPES: Final = ("variable", "operator")
TOKEN_MODIFIERS: Final = ("declaration", "deprecated", "invalid", "readonly", "literal")

MARKER: Final = TOKEN_TYPES.index("variable")
OPERATOR: Final = TOKEN_TYPES.index("operator")


def _bit(name: str) -> int:
    return 1 << TOKEN_MODIFIERS.index(name)


BINDING: Final = _bit("declaration")
LEGACY: Final = _bit("deprecated")
INVALID: Final = _bit("invalid")
READONLY: Final = _bit("readonly")
LITERAL: Final = _bit("literal")


@dataclass(frozen=True, slots=True)
class SemanticToken:
    start: int
    length: int
    type: int  # index into TOKEN_TYPES
    modifiers: int  # bit set over TOKEN_MODIFIERS


def tokens(
    snapshot: WorkspaceSnapshot, uri: str, start: int | None = None, end: int | None = None
) -> list[SemanticToken]:
    """Tokens of a document, or of those overlapping `[start, end)`, sorted by start."""
    found = snapshot.entry(uri)
    if found is None:
        return []
    course, entry = found
    every = document_tokens(entry.marker_scan, course.host)
    if start is None and end is None:
        return every
    low = 0 if start is None else start
    high = len(entry.text) if end is None else end
    return [t for t in every if t.start < high and t.start + t.length > low]


def document_tokens(result: ScanResult, host: HostProfile | None = None) -> list[SemanticToken]:
    """Tokens of the markers, invalid markers and interaction operators of `result`."""
    found: list[SemanticToken] = []
    for marker in result.markers:
        modifiers = 0
        if marker.role is Role.BINDING:
            modifiers |= BINDING
        if marker.legacy:
            modifiers |= LEGACY
        if marker.literal:
            modifiers |= LITERAL
        if host is not None and host.provides(marker.key):
            modifiers |= READONLY
        found.append(SemanticToken(marker.start, marker.end - marker.start, MARKER, modifiers))
    for invalid in result.invalid:
        start, end = invalid_span(invalid)
        found.append(SemanticToken(start, end - start, MARKER, INVALID))
    for interaction in result.interactions:
        found.extend(
            SemanticToken(op.start, op.end - op.start, OPERATOR, 0) for op in interaction.operators
        )
    found.sort(key=lambda token: token.start)
    return found
