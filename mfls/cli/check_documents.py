"""The findings of the documents a check reads, placed for a terminal; on a big course
shared out with forked copies of this process (`workspace.forking`), each placing the
findings of a run of the documents, in order, so that the report is the same with one
process or several."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import repeat
from operator import itemgetter
from typing import Any, Final, NamedTuple

from mfls.cli.output import decoded
from mfls.features.diagnostics import Diagnostic, document_findings, settle_findings
from mfls.text.places import places
from mfls.workspace.forking import even_runs, shared_out
from mfls.workspace.index import WorkspaceSnapshot
from mfls.workspace.parallel import fork_workers


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


class Checked(NamedTuple):
    """A document a check reads: how its path is shown, its URI and its text."""

    shown: str
    uri: str
    text: str


Placed = tuple[list[Finding], list[Finding]]
_Rows = tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]

FORK_MIN_MARKERS: Final = 12_000
"""Below this many markers in all, every document's findings are made in this process:
forking a copy and taking back its findings costs about what this many markers' cost."""


def documents_findings(
    snapshot: WorkspaceSnapshot,
    documents: Sequence[Checked],
    language: str,
    jobs: int | None,
) -> Placed:
    """The findings of `documents`, in order, and those their suppression comments
    silence; up to `jobs` processes (None: as many as pay) each make those of a run of
    documents of about as many markers."""
    weights = [_markers(snapshot, document.uri) for document in documents]
    workers = fork_workers(sum(weights), FORK_MIN_MARKERS, jobs, len(documents))

    def here(part: Sequence[Checked]) -> Placed:
        kept: list[Finding] = []
        silenced: list[Finding] = []
        for shown, uri, text in part:
            found = document_findings(snapshot, uri, language)
            kept += placed(shown, text, found.kept)
            silenced += placed(shown, text, found.suppressed)
        return kept, silenced

    if workers < 2:
        return here(documents)
    for course in {id(c): c for c in map(snapshot.course_for, _uris(documents)) if c}.values():
        settle_findings(course)
    parts = even_runs(documents, weights, workers)
    kept: list[Finding] = []
    silenced: list[Finding] = []
    for more, less in shared_out(parts, here, _there(here), _back):
        kept += more
        silenced += less
    return kept, silenced


def _there(here: Any) -> Any:
    def there(part: Sequence[Checked]) -> _Rows:
        kept, silenced = here(part)
        return list(map(tuple, kept)), list(map(tuple, silenced))

    return there


def _back(sent: _Rows) -> Placed:
    kept, silenced = sent
    return list(map(_new, repeat(Finding), kept)), list(map(_new, repeat(Finding), silenced))


def _markers(snapshot: WorkspaceSnapshot, uri: str) -> int:
    found = snapshot.entry(uri)
    return 0 if found is None else len(found[1].marker_scan.markers) + 1


def _uris(documents: Sequence[Checked]) -> list[str]:
    return [document.uri for document in documents]
