"""Semantic tokens: markers and interaction operators, as absolute code point spans."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Final

from mfls.features.lookup import invalid_span
from mfls.syntax.model import Interaction, Role, ScanResult
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
    every = document_tokens(entry.text, entry.result, course.host)
    if start is None and end is None:
        return every
    low = 0 if start is None else start
    high = len(entry.text) if end is None else end
    return [t for t in every if t.start < high and t.start + t.length > low]


def document_tokens(
    text: str, result: ScanResult, host: HostProfile | None = None
) -> list[SemanticToken]:
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
    masks = sorted(
        [(m.start, m.end) for m in result.markers] + [(i.start, i.end) for i in result.invalid]
    )
    for interaction in result.interactions:
        found.extend(_operators(text, interaction, masks))
    found.sort(key=lambda token: token.start)
    return found


def _masked(text: str, start: int, end: int, masks: list[tuple[int, int]]) -> str:
    """`text[start:end]` with every marker replaced by NULs of the same length."""
    pieces: list[str] = []
    cursor = start
    for index in range(max(bisect_right(masks, (start, start)) - 1, 0), len(masks)):
        low, high = masks[index]
        if high <= start:
            continue
        if low >= end:
            break
        low, high = max(low, start), min(high, end)
        pieces.append(text[cursor:low])
        pieces.append("\0" * (high - low))
        cursor = high
    pieces.append(text[cursor:end])
    return "".join(pieces)


def _operators(
    text: str, interaction: Interaction, masks: list[tuple[int, int]]
) -> list[SemanticToken]:
    base = interaction.start + 2
    body = _masked(text, base, interaction.end - 1, masks)
    found = [SemanticToken(interaction.start, 2, OPERATOR, 0)]
    ellipsis = body.find("...")
    choices = body if ellipsis == -1 else body[:ellipsis]
    separators: list[tuple[int, int]] = []
    if interaction.multiple:
        at = choices.find("||")
        while at != -1:
            separators.append((at, 2))
            at = choices.find("||", at + 2)
    else:
        at = choices.find("|")
        while at != -1:
            run = at
            while run < len(choices) and choices[run] == "|":
                run += 1
            if run - at == 1:
                separators.append((at, 1))
            at = choices.find("|", run)
    segment_start = 0
    for at, size in [*separators, (len(choices), 0)]:
        slashes = choices.find("//", segment_start, at)
        if slashes != -1:
            found.append(SemanticToken(base + slashes, 2, OPERATOR, 0))
        if size:
            found.append(SemanticToken(base + at, size, OPERATOR, 0))
        segment_start = at + size
    if ellipsis != -1:
        found.append(SemanticToken(base + ellipsis, 3, OPERATOR, 0))
    found.append(SemanticToken(interaction.end - 1, 1, OPERATOR, 0))
    return found
