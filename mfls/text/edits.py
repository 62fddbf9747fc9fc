"""Plain text edits in code point offsets, and applying them to a string."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TextChange:
    """Replace `[start, end)` (code point offsets, end exclusive) with `new_text`."""

    start: int
    end: int
    new_text: str


class OverlappingEdits(ValueError):
    """Two edits of one text touch the same characters."""


def apply_changes(text: str, changes: Iterable[TextChange]) -> str:
    """The text with every change applied; offsets all refer to the original text."""
    ordered = sorted(changes, key=lambda c: (c.start, c.end))
    parts: list[str] = []
    pos = 0
    for change in ordered:
        if change.start < pos or change.end < change.start or change.end > len(text):
            raise OverlappingEdits(f"edit {change.start}-{change.end} overlaps or leaves the text")
        parts.append(text[pos : change.start])
        parts.append(change.new_text)
        pos = change.end
    parts.append(text[pos:])
    return "".join(parts)
