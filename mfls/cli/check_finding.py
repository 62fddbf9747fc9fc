"""A finding of `mfls check`: one diagnostic placed for a terminal, and the placing."""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Any, Final, NamedTuple

from mfls.cli.output import decoded
from mfls.features.diagnostics import Diagnostic
from mfls.text.places import places


class Finding(NamedTuple):
    """One diagnostic, placed for a terminal: 1-based lines and code point columns (a
    tuple: a dense course makes them by the ten thousand)."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    severity: str
    code: str
    message: str
    lesson: str | None = None  # in an export: the title of the item the text belongs to
    item_id: str | None = None  # its outline_item_bid (None for the course's prompt)
    part: str | None = None  # the item's field holding the text

    def as_json(self) -> dict[str, Any]:
        place: dict[str, Any] = {}
        if self.lesson is not None:
            place = {
                "lesson": decoded(self.lesson),
                "outlineItemBid": self.item_id,
                "field": self.part,
            }
        return {
            **place,
            "path": decoded(self.path),
            "line": self.line,
            "column": self.column,
            "endLine": self.end_line,
            "endColumn": self.end_column,
            "severity": self.severity,
            "code": self.code,
            "message": decoded(self.message),
        }


_FINDING_ORDER: Final = itemgetter(1, 2, 6)  # line, column, code
_new = tuple.__new__  # the named tuple's own `__new__` is Python code


def placed(
    shown: str,
    text: str,
    items: Sequence[Diagnostic],
    lesson: tuple[str, str | None, str] | None = None,
) -> list[Finding]:
    """`items` placed in `text` (shown as `shown`), in order of line, column and code."""
    if not items:
        return []
    at = places(text, [offset for item in items for offset in (item.start, item.end)])
    title, item_id, field_name = lesson if lesson is not None else (None, None, None)
    found = [
        _new(
            Finding,
            (
                shown,
                *at[item.start],
                *at[item.end],
                item.severity,
                item.code,
                item.message,
                title,
                item_id,
                field_name,
            ),
        )
        for item in items
    ]
    found.sort(key=_FINDING_ORDER)
    return found
