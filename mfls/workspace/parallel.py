"""Scanning the texts of closed documents in other processes when there are enough of
them to pay.

`scan_texts(texts, jobs)` returns what `scan_markers` returns for each text, in order,
whatever `jobs` is: the other processes run the same scanner on the same strings, so the
index (and everything printed from it) is the same with one job or many. Where this
process may fork (`forking.fork_safe`: Linux, one thread, as `mfls check` runs), forked
copies scan runs of the texts while this one scans the first (`fork_workers`, from the
expected scan time and the CPUs free); elsewhere (the server indexes on a thread) a pool
of workers does, chosen by `chosen_workers`. `jobs=None` lets them choose.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable, Iterator, Sequence
from itertools import repeat
from typing import TYPE_CHECKING, Any

from mfls.disk.system_load import running_now
from mfls.syntax.model import Choice, Interaction, InvalidMarker, Marker, ScanResult
from mfls.syntax.scanner import scan_markers
from mfls.workspace.forking import even_runs, fork_safe, shared_out

PARALLEL_MIN_CHARS = 4_000_000
"""Below this many characters in all, texts are scanned in this process. Workers cost a
start (fork: ~10 ms, spawn: an interpreter and the scanner's imports) and about 12% more
CPU (results sent back as tuples and rebuilt). Two workers against one process on an
idle 2-core machine: 1.16x at 2 MB, 1.53x at 4 MB, 1.65x at 8 MB; on the same machine
under a load of 5-10 they lose (0.7-0.9x), as any extra process does there."""

SCAN_NS_PER_CHAR = 12.0
SCAN_NS_PER_LINE = 3200.0
"""The scanner's time in this process, per character and per line (a block per line);
the compiled build on a 2-CPU machine, fitted to bench_check.py's corpora at 1,600
lessons (`dense`: 0.49 s of CPU, `features`: 2.95 s). Only ratios of these count."""
PARENT_NS_PER_CHAR = 11.6
PARENT_NS_PER_LINE = 1100.0
"""This process's own time while workers scan: sending the texts, taking back and
rebuilding the results (forked, which spawned workers pay as well; measured with two
workers: 0.35 s for `dense`, 1.2 s for `features`). A course of long
lines dense with markers (the `dense` corpus of `bench_check.py`: 2,700 lines per
million characters) costs here about 0.7 of what its scan would; one of short blocks
(`features`: 34,000 lines per million) 0.4."""
WORKER_OVERHEAD = 1.12
"""A worker's scan against this process's (results written as tuples)."""
MAX_SHARE = 0.8
"""Workers are chosen only when the scan's expected time with them is at most this part
of its time here: the estimate is rough, and a wrong choice must not cost much."""
SAMPLE_TEXTS = 64
"""Lines are counted in about this many texts, spread over the course."""

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


def busy_cpus() -> float:
    """About how many CPUs other processes keep busy: the larger of the threads running
    now (this one left out) and the last minute's load average less one (this process's
    own share, when it ran before)."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # not on this system
        return 0.0
    now = running_now()
    return max(0.0, load - 1, -1.0 if now is None else now - 1)


def expected_share(chars: int, lines: int, workers: int, cpus: float) -> float:
    """The scan's expected time with `workers` worker processes sharing `cpus` free
    CPUs with this process, as a part of its time in this process alone."""
    here = _scan_ns(chars, lines)
    parent = chars * PARENT_NS_PER_CHAR + lines * PARENT_NS_PER_LINE
    work = here * WORKER_OVERHEAD
    spread = max(parent, work / workers, (parent + work) / max(cpus, 1.0))
    return spread / here if here else 1.0


def scan_ns(texts: Sequence[str]) -> int:
    """The expected time of scanning `texts` in this process, in nanoseconds, from their
    characters and their lines (`sampled_lines`)."""
    chars = sum(map(len, texts))
    return int(_scan_ns(chars, sampled_lines(texts, chars)))


def _scan_ns(chars: int, lines: int) -> float:
    return chars * SCAN_NS_PER_CHAR + lines * SCAN_NS_PER_LINE


def sampled_lines(texts: Sequence[str], chars: int) -> int:
    """About how many lines `texts` (`chars` characters in all) hold, counted in about
    `SAMPLE_TEXTS` of them."""
    sample = texts[:: max(1, len(texts) // SAMPLE_TEXTS)]
    return sum(text.count("\n") for text in sample) * chars // max(1, sum(map(len, sample)))


def chosen_workers(texts: Sequence[str], jobs: int | None = None) -> int:
    """How many worker processes should scan `texts` (at most `jobs`, the usable CPUs
    when None); 1 means this process. Workers pay only on enough text
    (`PARALLEL_MIN_CHARS`), with CPUs free, and when the text is slow to scan for its
    size (short lines: many blocks) rather than dense with markers to send back."""
    chars = sum(map(len, texts))
    if len(texts) < 2 or chars < PARALLEL_MIN_CHARS:
        return 1
    cpus = default_jobs() - busy_cpus()
    workers = min(jobs or default_jobs(), int(cpus), -(-chars // BATCH_CHARS))
    if workers < 2:
        return 1
    if expected_share(chars, sampled_lines(texts, chars), workers, cpus) > MAX_SHARE:
        return 1
    return workers


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


FORK_MIN_SCAN_NS = 60_000_000
"""Below this expected scan time (`scan_ns`) texts are scanned in this process even where
it may fork (`forking`): a forked copy starts in about a millisecond and sends back its
markers column by column, which this process rebuilds at about a sixth of what scanning
them costs, but the copy-on-write faults of two processes touching the same memory eat
the rest on a small course. Measured in process on 2 CPUs at 100 lessons (1.5 MB): the
parent's CPU time with a copy against one process 0.98 for the `dense` corpus of
bench_check.py (an expected 32 ms scan) and 0.81 for `features` (short blocks: 180 ms)."""
TWIN_MIN_SCAN_NS = 40_000_000
"""`FORK_MIN_SCAN_NS` for copies that go on with the check (`twins`): forked before the
course is built, they share little memory and pay from a smaller course. Measured on 2
CPUs, `mfls check --jobs 2` against `--jobs 1` (bench_check.py's corpora, medians of 9,
an idle machine): `features` 0.80-0.91 at 25 to 200 lessons (an expected 47-378 ms
scan); `dense` and `similar` 0.92-0.97 at 100 lessons (31-33 ms), 0.96-0.99 at 50 (15-16
ms), 1.00-1.03 at 25 (7-8 ms). Below 40 ms the gain is no bigger than what a busy host
takes from the copy's CPU (`similar` at 100 lessons: 1.10 at a time when every run took
twice as long), so a small course stays in one process."""
MOST_TWINS = 4
"""At most this many processes go on with a check together (`twins`), `--jobs` or not: each
builds the whole course's index, so their memory grows with their number."""
MOST_FORCED = 4
"""`jobs` asks for at most the CPUs this process may run on, or this many where fewer:
more processes than CPUs only share them (and hold their memory at once)."""
FREE_CPU = 0.6
"""A forked copy is started only for a CPU at least this free (`busy_cpus`)."""


def fork_workers(amount: int, minimum: int, jobs: int | None, items: int) -> int:
    """How many processes (this one and forked copies, `forking`) should share `items`
    pieces of work of `amount` in all, where `minimum` of it pays for a second process:
    `jobs` when given (`MOST_FORCED`), else one per CPU free enough (`FREE_CPU`) and per
    `minimum / 2`; always 1 where this process may not fork."""
    if items < 2 or not fork_safe():
        return 1
    if jobs is not None:
        return max(1, min(jobs, items, max(MOST_FORCED, default_jobs())))
    if amount < minimum:
        return 1
    free = default_jobs() - busy_cpus()
    workers = min(default_jobs(), int(free + 1 - FREE_CPU), amount * 2 // minimum, items)
    return max(1, workers)


_Columns = tuple[list[int], list[list[Any]], list[tuple[list[_Row], list[_Row]] | None]]


def _scanned_here(texts: Sequence[str]) -> list[ScanResult]:
    return [scan_markers(text) for text in texts]


def _scanned_there(texts: Sequence[str]) -> _Columns:
    return _columns(map(scan_markers, texts))  # each result dropped once in the columns


def _columns(results: Iterable[ScanResult]) -> _Columns:
    """What a forked copy sends back of its texts' results: each text's count of markers,
    the markers of all texts column by column (the C pickler writes a few long lists far
    faster than many records), and each text's invalid markers and interactions as rows
    (few)."""
    counts: list[int] = []
    columns: list[list[Any]] = [[] for _ in Marker._fields]
    rest: list[tuple[list[_Row], list[_Row]] | None] = []
    for result in results:
        counts.append(len(result.markers))
        # No markers: no columns, nothing to add.
        for column, values in zip(columns, zip(*result.markers, strict=True), strict=False):
            column.extend(values)
        if result.invalid or result.interactions:
            invalid = [tuple(i) for i in result.invalid]
            rest.append((invalid, [_interaction_row(x) for x in result.interactions]))
        else:
            rest.append(None)
    return counts, columns, rest


def _scanned_back(sent: _Columns) -> list[ScanResult]:
    counts, columns, rest = sent
    markers = list(map(_new, repeat(Marker), zip(*columns, strict=True)))
    results: list[ScanResult] = []
    at = 0
    for count, others in zip(counts, rest, strict=True):
        mine = tuple(markers[at : at + count])
        at += count
        if others is None:
            results.append(_new(ScanResult, (mine, (), (), (), ())))
        else:
            invalid = tuple([_new(InvalidMarker, i) for i in others[0]])
            interactions = tuple(map(_interaction, others[1]))
            results.append(_new(ScanResult, (mine, invalid, interactions, (), ())))
    return results


def _forked_scan(texts: Sequence[str], workers: int, twinning: bool) -> Iterator[ScanResult]:
    parts = even_runs(texts, list(map(len, texts)), workers)
    if twinning:
        from mfls.workspace.twins import exchanged

        made = exchanged(parts, _scanned_here, _columns, _scanned_back)
    else:
        made = shared_out(parts, _scanned_here, _scanned_there, _scanned_back)
    for part in made:
        yield from part


def scan_texts(texts: Sequence[str], jobs: int | None = 1) -> Iterator[ScanResult]:
    """`scan_markers(text)` of each of `texts`, in order. Where this process may fork:
    `jobs` processes (`fork_workers`; None: as many as pay); elsewhere, with `jobs` > 1
    and enough text, up to `jobs` worker processes (None: `chosen_workers`)."""
    if fork_safe():
        from mfls.workspace import twins  # loaded only where copies may be forked

        twinning = twins.may_start()
        least = TWIN_MIN_SCAN_NS if twinning else FORK_MIN_SCAN_NS
        workers = fork_workers(scan_ns(texts), least, jobs, len(texts))
        if twinning:
            workers = min(workers, MOST_TWINS)
        if workers > 1:
            yield from _forked_scan(texts, workers, twinning)
        else:
            yield from map(scan_markers, texts)
        return
    if jobs is None:
        jobs = chosen_workers(texts)
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
