"""Scanning the texts of closed documents, in worker processes when there are enough of
them to pay for starting the workers.

`scan_texts(texts, jobs)` returns what `scan_markers` returns for each text, in order,
whatever `jobs` is: the workers run the same pure scanner on the same strings, so the
index (and everything printed from it) is the same with one job or many.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from mfls.syntax.model import Choice, Interaction, InvalidMarker, Marker, ScanResult
from mfls.syntax.scanner import scan_markers

PARALLEL_MIN_CHARS = 4_000_000
"""Below this many characters in all, texts are scanned in this process. Workers cost a
start (fork: ~10 ms, spawn: an interpreter and the scanner's imports) and about 12% more
CPU (results sent back as tuples and rebuilt). Two workers against one process on an
idle 2-core machine: 1.16x at 2 MB, 1.53x at 4 MB, 1.65x at 8 MB; on the same machine
under a load of 5-10 they lose (0.7-0.9x), as any extra process does there."""

BATCH_CHARS = 1_000_000
"""About this many characters go to a worker at a time: few enough round trips, and
small enough batches that the workers finish together."""

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

log = logging.getLogger("mfls")

_Row = tuple[Any, ...]
_Scanned = tuple[list[_Row], list[_Row], list[_Row]]


def default_jobs() -> int:
    """The CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


# A worker sends its results as plain tuples (enum members pickle once per batch): the
# C pickler writes those several times faster than named tuples, and the parent rebuilds
# the records with `tuple.__new__` (`_make` is Python code).


def _interaction_row(x: Interaction) -> _Row:
    b = x.binding_marker
    return (*x[:4], [tuple(c) for c in x.choices], x.input, None if b is None else tuple(b), *x[7:])


_new = tuple.__new__


def _interaction(row: _Row) -> Interaction:
    b = row[6]
    return _new(
        Interaction,
        (
            *row[:4],
            tuple([_new(Choice, c) for c in row[4]]),
            row[5],
            None if b is None else _new(Marker, b),
            *row[7:],
        ),
    )


def _scan_batch(texts: list[str]) -> list[_Scanned]:
    out = []
    for text in texts:
        r = scan_markers(text)
        out.append(
            (
                [tuple(m) for m in r.markers],
                [tuple(i) for i in r.invalid],
                [_interaction_row(x) for x in r.interactions],
            )
        )
    return out


def _result(scanned: _Scanned) -> ScanResult:
    markers, invalid, interactions = scanned
    return ScanResult(
        tuple([_new(Marker, m) for m in markers]),
        tuple([_new(InvalidMarker, i) for i in invalid]),
        tuple(map(_interaction, interactions)),
    )


def _batches(texts: Sequence[str]) -> Iterator[list[str]]:
    batch: list[str] = []
    size = 0
    for text in texts:
        batch.append(text)
        size += len(text)
        if size >= BATCH_CHARS:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch


def _context() -> BaseContext:
    """fork where it is safe (no other thread, so no lock can be held across it), which
    starts a worker in milliseconds; spawn elsewhere (the server indexes on a thread)."""
    import multiprocessing

    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def scan_texts(texts: Sequence[str], jobs: int = 1) -> Iterator[ScanResult]:
    """`scan_markers(text)` of each of `texts`, in order; with `jobs` > 1 and enough text,
    in up to `jobs` worker processes."""
    if jobs <= 1 or len(texts) < 2 or sum(len(t) for t in texts) < PARALLEL_MIN_CHARS:
        for text in texts:
            yield scan_markers(text)
        return
    # Imported here: a check that stays in one process never loads multiprocessing.
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    batches = list(_batches(texts))
    done = 0
    try:
        with ProcessPoolExecutor(min(jobs, len(batches)), mp_context=_context()) as pool:
            for scanned in pool.map(_scan_batch, batches):
                for one in scanned:
                    yield _result(one)
                done += 1
    except (OSError, BrokenProcessPool) as error:  # no processes here: scan the rest
        log.warning("scanning in one process: the worker processes failed (%s)", error)
        for batch in batches[done:]:
            for text in batch:
                yield scan_markers(text)
