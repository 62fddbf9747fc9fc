"""Work shared with forked copies gives what this process alone gives: parts in order,
and a copy that fails, dies or cannot start leaves its part to this process."""

from __future__ import annotations

import logging
import os
import sys

import pytest

from mfls.workspace import forking
from mfls.workspace.forking import even_runs, shared_out

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux")


def _square_all(part: list[int]) -> list[int]:
    return [n * n for n in part]


def _sent(part: list[int]) -> tuple[int, list[int]]:
    return os.getpid(), _square_all(part)


def test_each_part_is_made_by_a_copy_and_comes_back_in_order() -> None:
    pids: list[int] = []

    def back(sent: tuple[int, list[int]]) -> list[int]:
        pids.append(sent[0])
        return sent[1]

    parts = [[1, 2], [3], [], [4, 5, 6]]
    assert shared_out(parts, _square_all, _sent, back) == [[1, 4], [9], [], [16, 25, 36]]
    assert len(pids) == 3
    assert os.getpid() not in pids
    assert len(set(pids)) == 3


def _raises(part: list[int]) -> list[int]:
    raise ValueError("a fault in the copy")


def _dies(part: list[int]) -> list[int]:
    os._exit(3)


def _unpicklable(part: list[int]) -> object:
    return lambda: part


@pytest.mark.parametrize("there", [_raises, _dies, _unpicklable])
def test_a_copy_that_fails_leaves_its_part_to_this_process(
    there: object, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="mfls"):
        found = shared_out([[1], [2], [3]], _square_all, there, list)  # type: ignore[arg-type]
    assert found == [[1], [4], [9]]
    assert caplog.text.count("a forked process failed") == 2


def test_no_fork_makes_every_part_here(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused() -> int:
        raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(forking.os, "fork", refused)
    assert shared_out([[1], [2]], _square_all, _sent, list) == [[1], [4]]


def test_a_fault_here_stops_and_reaps_the_copies(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[tuple[int, int] | None] = []
    start = forking._start

    def counted(there: object, part: object, earlier: list[int]) -> tuple[int, int] | None:
        child = start(there, part, earlier)  # type: ignore[arg-type]
        started.append(child)
        return child

    def fails(part: list[int]) -> list[int]:
        raise RuntimeError("a fault in this process")

    monkeypatch.setattr(forking, "_start", counted)
    with pytest.raises(RuntimeError):
        shared_out([[1], [2], [3]], fails, _sent, list)
    assert len(started) == 2
    for child in started:
        assert child is not None
        with pytest.raises(ChildProcessError):  # reaped already
            os.waitpid(child[0], os.WNOHANG)


@pytest.mark.parametrize("count", [1, 2, 3, 7])
def test_even_runs_keep_every_item_in_order(count: int) -> None:
    items = [f"t{n}" for n in range(20)]
    weights = [n % 5 + 1 for n in range(20)]
    runs = even_runs(items, weights, count)
    assert len(runs) == count
    assert [item for run in runs for item in run] == items
    total = sum(weights)
    heaviest = max(sum(weights[items.index(i)] for i in run) for run in runs)
    assert heaviest <= total / count + max(weights)


def test_even_runs_of_nothing() -> None:
    assert even_runs([], [], 2) == [[], []]


def test_a_copy_holds_no_other_copys_pipe(tmp_path: object) -> None:
    """Each copy closes the reading ends of the copies started before it: it holds only
    its own pipe (so a copy left behind keeps no other's open)."""

    def open_pipes(part: list[int]) -> list[int]:
        return sorted(
            int(fd)
            for fd in os.listdir("/proc/self/fd")
            if os.path.exists(f"/proc/self/fd/{fd}")
            and os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:")
        )

    before = open_pipes([])
    found = shared_out([[0], [1], [2], [3]], open_pipes, open_pipes, list)
    for pipes in found[1:]:
        assert len(set(pipes) - set(before)) == 1  # its own writing end
