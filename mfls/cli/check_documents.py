"""The findings of the documents a check reads, placed for a terminal; on a big course
shared out with forked copies of this process (`workspace.forking`), each placing the
findings of a run of the documents, in order, so that the report is the same with one
process or several. For the text report a copy sends the lines of its findings, made
and encoded, which this process writes as they are."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import repeat
from typing import Any, Final, NamedTuple

from mfls.cli.check_finding import Finding, placed
from mfls.cli.check_text import Written, text_chunks
from mfls.features.diagnostics import document_findings, settle_findings
from mfls.workspace import twins
from mfls.workspace.forking import even_runs, shared_out
from mfls.workspace.index import WorkspaceSnapshot
from mfls.workspace.parallel import fork_workers


class Checked(NamedTuple):
    """A document a check reads: how its path is shown, its URI and its text."""

    shown: str
    uri: str
    text: str


class Found(NamedTuple):
    """The findings of a check's documents: those shown, in order, with runs already
    written as text (each before the shown finding at its index), and those suppression
    comments silence (none from a written run: the text report leaves them out)."""

    kept: list[Finding]
    written: list[tuple[int, Written]]
    silenced: list[Finding]


Placed = tuple[list[Finding], list[Finding]]
_Rows = tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]
_new = tuple.__new__  # the named tuple's own `__new__` is Python code

FORK_MIN_MARKERS: Final = 12_000
"""Below this many markers in all, every document's findings are made in this process:
forking a copy and taking back its findings costs about what this many markers' cost."""


def documents_findings(
    snapshot: WorkspaceSnapshot,
    documents: Sequence[Checked],
    language: str,
    jobs: int | None,
    as_text: bool = False,
) -> Found:
    """The findings of `documents`, in order, and those their suppression comments
    silence; up to `jobs` processes (None: as many as pay) each make those of a run of
    documents of about as many markers, a copy's sent written as text with `as_text`."""
    weights = [_markers(snapshot, document.uri) for document in documents]
    workers = twins.beside()  # copies that went on with the check make their own runs
    twinned = workers > 1
    if not twinned:
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
        kept, silenced = here(documents)
        return Found(kept, [], silenced)
    courses = {c.id: c for d in documents if (c := snapshot.course_for(d.uri)) is not None}
    for course in courses.values():
        settle_findings(course)
    found = Found([], [], [])
    # The text report's lines of this process's run are made while the copies work.
    written = _written(here)
    mine: Callable[[Sequence[Checked]], Placed | Written] = written if as_text else here
    there: Callable[[Sequence[Checked]], _Rows | Written] = written if as_text else _rows(here)
    runs = even_runs(documents, weights, workers)
    if twinned:  # the copies' cut is theirs only if they saw the same documents
        agreed = ([document.uri for document in documents], weights)
        runs_made = twins.made_beside(runs, mine, there, _back, agreed)
    else:
        runs_made = shared_out(runs, mine, there, _back)
    for made in runs_made:
        if isinstance(made, Written):
            found.written.append((len(found.kept), made))
        else:
            found.kept.extend(made[0])
            found.silenced.extend(made[1])
    return found


Made = Callable[[Sequence[Checked]], Placed]


def _rows(here: Made) -> Callable[[Sequence[Checked]], _Rows]:
    def there(part: Sequence[Checked]) -> _Rows:
        kept, silenced = here(part)
        return list(map(tuple, kept)), list(map(tuple, silenced))

    return there


def _written(here: Made) -> Callable[[Sequence[Checked]], Written]:
    def there(part: Sequence[Checked]) -> Written:
        kept, _ = here(part)
        data = "".join(text_chunks(kept)).encode("utf-8", errors="surrogatepass")
        return Written(data, any(f.severity == "error" for f in kept))

    return there


def _back(sent: Any) -> Placed | Written:
    """What a copy sent (`_rows` or `_written`), made findings again."""
    if isinstance(sent, Written):
        return sent
    kept, silenced = sent
    return list(map(_new, repeat(Finding), kept)), list(map(_new, repeat(Finding), silenced))


def _markers(snapshot: WorkspaceSnapshot, uri: str) -> int:
    found = snapshot.entry(uri)
    return 0 if found is None else len(found[1].marker_scan.markers) + 1
