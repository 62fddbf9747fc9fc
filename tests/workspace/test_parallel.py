"""Scanning in other processes gives what scanning in this process gives: forked copies
where this process may fork (`forking`), else a pool of workers."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

import pytest

from mfls.syntax.model import ScanResult
from mfls.syntax.scanner import scan, scan_markers
from mfls.workspace import parallel
from mfls.workspace.parallel import scan_texts
from mfls.workspace.workspace import Workspace

TEXTS = [
    "# Lesson\n\n?[%{{ level }} Beginner//b | Expert | ...Other]\n\nUse {{ level }}.\n",
    'A `{{ code }}` span, $ {{ math }} $, [x]({{ url }} "{{ title }}") and {{ }}.\n',
    "?[{{ many }} A || B || C]\n\n<div>\n{{ html }}\n</div>\n\n```{{ info }}\n{{ no }}\n```\n",
    "Broken {{ a\nb }} and {{ unclosed\n\n{{ ok }} après 😀 {{ x\r\n",
    "",
]


@pytest.fixture
def small_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool of workers (no forked copies) for any size."""
    monkeypatch.setattr(parallel, "fork_safe", lambda: False)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_CHARS", 0)
    monkeypatch.setattr(parallel, "BATCH_CHARS", 100)


def assert_scanned_alike(texts: list[str], found: list[ScanResult]) -> None:
    """`found` is what this process's scanner gives for each text, and what its full
    scan gives of markers, invalid markers and interactions."""
    assert found == [scan_markers(t) for t in texts]
    for text, result in zip(texts, found, strict=True):
        full = scan(text)
        assert (result.markers, result.invalid, result.interactions) == (
            full.markers,
            full.invalid,
            full.interactions,
        )


@pytest.fixture
def forks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Forked copies however this test runs (threads of a test runner too: the copies
    only scan); the sizes of the parts each copy got."""
    from mfls.workspace import forking

    monkeypatch.setattr(parallel, "fork_safe", lambda: True)
    sizes: list[int] = []
    start = forking._start

    def counted(there: Any, part: Any, earlier: list[int]) -> tuple[int, int] | None:
        sizes.append(len(part))
        return start(there, part, earlier)

    monkeypatch.setattr(forking, "_start", counted)
    return sizes


@pytest.mark.parametrize("jobs", [2, 3, 4])
def test_forked_copies_scan_what_this_process_scans(forks: list[int], jobs: int) -> None:
    texts = TEXTS * 7
    found = list(scan_texts(texts, jobs=jobs))
    assert len(forks) == jobs - 1
    assert sum(forks) < len(texts)
    assert_scanned_alike(texts, found)


def test_cold_indexing_with_forked_copies_builds_the_same_index(
    tmp_path: Path, forks: list[int]
) -> None:
    for n, text in enumerate(TEXTS * 10):
        (tmp_path / f"{n:03d}.md").write_text(text, encoding="utf-8", newline="")
    assert _index(tmp_path, 2) == _index(tmp_path, 1)
    assert forks


def _index(root: Path, jobs: int) -> dict[str, tuple[object, ...]]:
    workspace = Workspace(jobs=jobs)
    workspace.set_folders([str(root)])
    workspace.index_all()
    (course,) = workspace.snapshot.courses.values()
    return {
        uri: (entry.text, entry.marker_scan, entry.result, entry.order)
        for uri, entry in course.docs.items()
    }


@pytest.fixture
def fork_idle_two_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "fork_safe", lambda: True)
    monkeypatch.setattr(parallel, "default_jobs", lambda: 2)
    monkeypatch.setattr(parallel, "busy_cpus", lambda: 0.0)


def test_forked_copies_are_chosen_by_size_and_free_cpus(
    fork_idle_two_cpus: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    least = parallel.FORK_MIN_SCAN_NS
    big, small = least, least - 1
    assert parallel.fork_workers(big, least, None, 10) == 2
    assert parallel.fork_workers(big * 10, least, None, 10) == 2  # one per CPU
    assert parallel.fork_workers(small, least, None, 10) == 1
    assert parallel.fork_workers(big, least, None, 1) == 1  # one text
    assert parallel.fork_workers(small, least, 3, 10) == 3  # --jobs 3
    assert parallel.fork_workers(big, least, 1, 10) == 1  # --jobs 1
    monkeypatch.setattr(parallel, "busy_cpus", lambda: 0.5)
    assert parallel.fork_workers(big, least, None, 10) == 1
    monkeypatch.setattr(parallel, "busy_cpus", lambda: 0.3)
    assert parallel.fork_workers(big, least, None, 10) == 2
    monkeypatch.setattr(parallel, "fork_safe", lambda: False)
    assert parallel.fork_workers(big, least, 2, 10) == 1


def test_jobs_force_a_count_up_to_the_cpus_or_four(
    fork_idle_two_cpus: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert parallel.fork_workers(0, 1, 40, 100) == 4  # 2 CPUs: at most 4
    monkeypatch.setattr(parallel, "default_jobs", lambda: 16)
    assert parallel.fork_workers(0, 1, 40, 100) == 16
    assert parallel.fork_workers(0, 1, 12, 100) == 12


def test_the_expected_scan_weighs_lines(fork_idle_two_cpus: None) -> None:
    """Short blocks are slow to scan for their size: a course of them is shared out
    where one of as many characters in long lines is not."""
    short = _lessons(SHORT_BLOCKS, 4_000, 20)  # 1.8 MB, 80,000 lines
    long = _lessons(LONG_LINES, 36, 20)  # 1.8 MB, 1,440 lines
    assert sum(map(len, short)) <= sum(map(len, long))
    assert parallel.scan_ns(short) > parallel.FORK_MIN_SCAN_NS > parallel.scan_ns(long)


def test_workers_scan_what_this_process_scans(small_threshold: None) -> None:
    texts = TEXTS * 40
    results = scan_texts(texts, jobs=2)
    first = next(results)
    assert multiprocessing.active_children(), "no worker process was started"
    found = [first, *results]
    assert_scanned_alike(texts, found)


def test_small_inputs_stay_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "fork_safe", lambda: False)  # a pool is asked for
    results = scan_texts(TEXTS, jobs=4)
    next(results)
    assert not multiprocessing.active_children()
    assert list(results) == [scan_markers(t) for t in TEXTS[1:]]


def test_cold_indexing_with_workers_builds_the_same_index(
    tmp_path: Path, small_threshold: None
) -> None:
    for n, text in enumerate(TEXTS * 10):
        (tmp_path / f"{n:03d}.md").write_text(text, encoding="utf-8", newline="")

    assert _index(tmp_path, 2) == _index(tmp_path, 1)


def test_workers_started_from_a_thread_scan_the_same(small_threshold: None) -> None:
    """The server indexes on a thread: its workers are spawned, not forked."""
    import threading

    texts = TEXTS * 4
    found: list[object] = []
    methods: list[str] = []

    def index() -> None:
        methods.append(parallel._context().get_start_method())
        found.extend(scan_texts(texts, jobs=2))

    thread = threading.Thread(target=index)
    thread.start()
    thread.join(120)
    assert methods == ["spawn"]
    assert found == [scan_markers(t) for t in texts]


def test_one_batch_or_more_jobs_than_batches_scan_the_same(small_threshold: None) -> None:
    one = ["".join(TEXTS) * 3]
    assert list(scan_texts(one, jobs=2)) == [scan_markers(one[0])]
    few = TEXTS * 3
    assert list(scan_texts(few, jobs=16)) == [scan_markers(t) for t in few]


def _lessons(line: str, lines: int, count: int) -> list[str]:
    return [line * lines for _ in range(count)]


@pytest.fixture
def idle_two_cpus(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "fork_safe", lambda: False)
    monkeypatch.setattr(parallel, "default_jobs", lambda: 2)
    monkeypatch.setattr(parallel, "busy_cpus", lambda: 0.0)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_CHARS", 100_000)
    monkeypatch.setattr(parallel, "BATCH_CHARS", 20_000)


SHORT_BLOCKS = "- an item {{ level }}\n"  # 22 characters a line: a block each
LONG_LINES = "A long paragraph that reads {{ level }} and {{ goal }} again. " * 40 + "\n\n"


def test_workers_are_chosen_for_text_slow_to_scan(idle_two_cpus: None) -> None:
    assert parallel.chosen_workers(_lessons(SHORT_BLOCKS, 700, 20)) == 2
    assert parallel.chosen_workers(_lessons(SHORT_BLOCKS, 700, 20), jobs=1) == 1


def test_long_lines_dense_with_markers_stay_in_this_process(idle_two_cpus: None) -> None:
    # Sending their markers back would cost about what scanning them does.
    assert parallel.chosen_workers(_lessons(LONG_LINES, 6, 20)) == 1


def test_small_courses_and_busy_cpus_stay_in_this_process(
    idle_two_cpus: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert parallel.chosen_workers(_lessons(SHORT_BLOCKS, 100, 20)) == 1  # 44,000 chars
    monkeypatch.setattr(parallel, "busy_cpus", lambda: 1.0)
    assert parallel.chosen_workers(_lessons(SHORT_BLOCKS, 700, 20)) == 1


def test_a_chosen_count_scans_the_same(idle_two_cpus: None) -> None:
    texts = _lessons(SHORT_BLOCKS, 700, 20) + TEXTS
    results = scan_texts(texts, jobs=None)
    first = next(results)
    assert multiprocessing.active_children(), "no worker process was started"
    assert [first, *results] == [scan_markers(t) for t in texts]


def test_busy_cpus_reads_this_system(monkeypatch: pytest.MonkeyPatch) -> None:
    busy = parallel.busy_cpus()
    assert 0.0 <= busy < 10_000
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (5.5, 0.0, 0.0))
    assert parallel.busy_cpus() >= 4.5  # the last minute's load, this process left out
