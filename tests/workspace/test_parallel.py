"""Scanning in worker processes gives what scanning in this process gives."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

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
    monkeypatch.setattr(parallel, "PARALLEL_MIN_CHARS", 0)
    monkeypatch.setattr(parallel, "BATCH_CHARS", 100)


def test_workers_scan_what_this_process_scans(small_threshold: None) -> None:
    texts = TEXTS * 40
    results = scan_texts(texts, jobs=2)
    first = next(results)
    assert multiprocessing.active_children(), "no worker process was started"
    found = [first, *results]
    assert found == [scan_markers(t) for t in texts]
    for text, result in zip(texts, found, strict=True):
        full = scan(text)
        assert (result.markers, result.invalid, result.interactions) == (
            full.markers,
            full.invalid,
            full.interactions,
        )


def test_small_inputs_stay_in_this_process() -> None:
    results = scan_texts(TEXTS, jobs=4)
    next(results)
    assert not multiprocessing.active_children()
    assert list(results) == [scan_markers(t) for t in TEXTS[1:]]


def test_cold_indexing_with_workers_builds_the_same_index(
    tmp_path: Path, small_threshold: None
) -> None:
    for n, text in enumerate(TEXTS * 10):
        (tmp_path / f"{n:03d}.md").write_text(text, encoding="utf-8", newline="")

    def index(jobs: int) -> dict[str, tuple[object, ...]]:
        workspace = Workspace(jobs=jobs)
        workspace.set_folders([str(tmp_path)])
        workspace.index_all()
        (course,) = workspace.snapshot.courses.values()
        return {
            uri: (entry.text, entry.marker_scan, entry.result, entry.order)
            for uri, entry in course.docs.items()
        }

    assert index(2) == index(1)


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
