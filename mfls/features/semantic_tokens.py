"""Semantic tokens: markers and interaction operators, as absolute code point spans; on
AI-Shifu, fixed output too (its text as `string`, its markers with the `fixed` modifier)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from mfls.features.at_offset import invalid_span
from mfls.features.facts import facts_of
from mfls.features.lesson_structure import structure_of
from mfls.syntax.model import Interaction, Marker, Role, ScanResult
from mfls.workspace.ai_shifu_structure import Structure
from mfls.workspace.index import WorkspaceSnapshot

# Append only: clients keep the indices of the legend.
TOKEN_TYPES: Final = ("variable", "operator", "string")
TOKEN_MODIFIERS: Final = ("declaration", "deprecated", "invalid", "readonly", "literal", "fixed")

MARKER: Final = TOKEN_TYPES.index("variable")
OPERATOR: Final = TOKEN_TYPES.index("operator")
FIXED_TEXT: Final = TOKEN_TYPES.index("string")


def _bit(name: str) -> int:
    return 1 << TOKEN_MODIFIERS.index(name)


BINDING: Final = _bit("declaration")
LEGACY: Final = _bit("deprecated")
INVALID: Final = _bit("invalid")
READONLY: Final = _bit("readonly")
LITERAL: Final = _bit("literal")
FIXED: Final = _bit("fixed")


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
    every = document_tokens(
        entry.marker_scan,
        facts_of(course).provided,
        structure_of(course, entry),
        entry.binds,
        entry.interactions,
    )
    if start is None and end is None:
        return every
    low = 0 if start is None else start
    high = len(entry.text) if end is None else end
    return [t for t in every if t.start < high and t.start + t.length > low]


def document_tokens(
    result: ScanResult,
    read_only: Callable[[str], bool] | None = None,
    structure: Structure | None = None,
    binds: Callable[[Marker], bool] | None = None,
    interactions: Sequence[Interaction] | None = None,
) -> list[SemanticToken]:
    """Tokens of the markers, invalid markers and interaction operators of `result` (of
    `interactions`, the runtime's reading, when given), and of the fixed output of
    `structure`: its text between those tokens, as `string`; a marker of a key
    `read_only` names (the host provides it) is `readonly`."""
    found: list[SemanticToken] = []
    for marker in result.markers:
        modifiers = 0
        if marker.role is Role.BINDING and (binds is None or binds(marker)):
            modifiers |= BINDING
        if marker.legacy:
            modifiers |= LEGACY
        if marker.literal:
            modifiers |= LITERAL
        if read_only is not None and read_only(marker.key):
            modifiers |= READONLY
        found.append(SemanticToken(marker.start, marker.end - marker.start, MARKER, modifiers))
    for invalid in result.invalid:
        start, end = invalid_span(invalid)
        found.append(SemanticToken(start, end - start, MARKER, INVALID))
    for interaction in result.interactions if interactions is None else interactions:
        found.extend(
            SemanticToken(op.start, op.end - op.start, OPERATOR, 0) for op in interaction.operators
        )
    found.sort(key=lambda token: token.start)
    if structure is not None:
        found = _with_fixed_output(found, structure)
    return found


def _with_fixed_output(found: list[SemanticToken], structure: Structure) -> list[SemanticToken]:
    spans = [s for b in structure.blocks for s in b.spans if s.closed]
    if not spans:
        return found
    marked: list[SemanticToken] = []
    for token in found:
        inside = any(s.start <= token.start < s.end for s in spans)
        marked.append(
            SemanticToken(token.start, token.length, token.type, token.modifiers | FIXED)
            if inside
            else token
        )
    gaps: list[SemanticToken] = []
    for span in spans:
        at = span.start
        for token in marked:
            if token.start + token.length <= at or token.start >= span.end:
                continue
            if token.start > at:
                gaps.append(SemanticToken(at, token.start - at, FIXED_TEXT, 0))
            at = max(at, token.start + token.length)
        if at < span.end:
            gaps.append(SemanticToken(at, span.end - at, FIXED_TEXT, 0))
    marked.extend(gaps)
    marked.sort(key=lambda token: token.start)
    return marked
