"""Copies that go on with the check beside this process: after the exchange every process
holds every part, each makes the findings of its own, and a copy that fails, dies or is
never asked leaves its part to this process, writes nothing and ends with the block."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import pytest

from mfls.workspace import twins
from mfls.workspace.twins import beside, exchanged, made_beside, may_start, twinned
from tests.kit.cli import environment

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux")

PARTS = [[1, 2], [3], [], [4, 5, 6]]
SQUARES = [[1, 4], [9], [], [16, 25, 36]]


def _square_all(part: list[int]) -> list[int]:
    return [n * n for n in part]


T = TypeVar("T")


def _alike(value: T) -> T:
    return value


def _ended(pid: int) -> bool:
    """Whether `pid` is gone, or dead and not yet reaped by whoever adopted it."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def _soon_ended(pids: Sequence[int], seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not all(map(_ended, pids)):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_every_process_holds_every_part_and_makes_its_own_findings() -> None:
    with twinned():
        assert may_start()
        squares = exchanged(PARTS, _square_all, _alike, _alike)
        assert not may_start()
        assert beside() == len(PARTS)

        def seen(part: Sequence[int]) -> tuple[int, list[int], list[list[int]]]:
            return os.getpid(), list(part), squares

        made = made_beside([[0], [1], [2], [3]], seen, seen, _alike)
    assert squares == SQUARES
    pids = [pid for pid, _, _ in made]
    assert pids[0] == os.getpid()
    assert len(set(pids)) == len(PARTS)
    assert [part for _, part, _ in made] == [[0], [1], [2], [3]]
    assert all(held == SQUARES for _, _, held in made)
    assert all(_ended(pid) for pid in pids[1:])


def test_outside_the_block_nothing_is_forked() -> None:
    assert not may_start()
    assert beside() == 1
    with twinned():
        assert beside() == 1  # until a scan starts copies
    assert not may_start()


def _dies_in_a_copy(parent: int) -> Callable[[list[int]], list[int]]:
    def here(part: list[int]) -> list[int]:
        if os.getpid() != parent:
            os._exit(3)
        return _square_all(part)

    return here


def test_a_copy_that_dies_before_the_exchange_leaves_its_part_here(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="mfls"), twinned():
        squares = exchanged(PARTS, _dies_in_a_copy(os.getpid()), _alike, _alike)
        assert beside() == len(PARTS)
        made = made_beside(PARTS, _square_all, _square_all, _alike)
    assert squares == made == SQUARES
    assert caplog.text.count("a forked process failed") == len(PARTS) - 1


@pytest.mark.parametrize("fault", ["raises", "dies", "unpicklable"])
def test_a_copy_that_fails_on_its_findings_leaves_them_here(fault: str) -> None:
    parent = os.getpid()

    def there(part: list[int]) -> object:
        if fault == "raises":
            raise ValueError("a fault in the copy")
        if fault == "dies":
            os._exit(3)
        return lambda: part

    with twinned():
        exchanged(PARTS, _square_all, _alike, _alike)
        made = made_beside(PARTS, _square_all, there, _alike)
    assert os.getpid() == parent
    assert made == SQUARES


def test_a_copy_writes_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    with twinned():
        exchanged(PARTS, _square_all, _alike, _alike)
        print("said by every process", flush=True)
        print("and on errors", file=sys.stderr, flush=True)
        made_beside(PARTS, _square_all, _square_all, _alike)
    out, err = capfd.readouterr()
    assert out == "said by every process\n"
    assert err == "and on errors\n"


def test_copies_never_asked_end_with_the_block() -> None:
    def pid(part: list[int]) -> int:
        return os.getpid()

    with twinned():
        pids = exchanged(PARTS, pid, _alike, _alike)
    assert pids[0] == os.getpid()
    assert len(set(pids)) == len(PARTS)
    assert all(_ended(copy) for copy in pids[1:])


def test_a_fault_here_stops_the_copies() -> None:
    def pid(part: list[int]) -> int:
        return os.getpid()

    with pytest.raises(RuntimeError), twinned():
        pids = exchanged(PARTS, pid, _alike, _alike)
        raise RuntimeError("a fault in this process")
    assert all(_ended(copy) for copy in pids[1:])


def test_messages_bigger_than_a_pipe_cross_both_ways() -> None:
    """Each side sends a message far bigger than a pipe holds while the other sends its
    own: neither waits on the other."""
    big = [list(range(n, n + 300_000)) for n in range(3)]
    with twinned():
        got = exchanged(big, _alike, _alike, _alike)
        made = made_beside(big, len, len, _alike)
    assert got == big
    assert made == [300_000] * 3


def test_a_copy_holds_only_its_own_pipes() -> None:
    def pipes(part: object) -> list[str]:
        return sorted(
            os.readlink(f"/proc/self/fd/{fd}")
            for fd in os.listdir("/proc/self/fd")
            if os.path.exists(f"/proc/self/fd/{fd}")
            and os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:")
        )

    before = set(pipes(None))
    with twinned():
        exchanged([[0], [1], [2]], _alike, _alike, _alike)
        held = made_beside([0, 1, 2], pipes, pipes, _alike)
    for copy in held[1:]:
        assert len(set(copy) - before) == 2  # its own ends: one each way
    assert twins._scope is None


def test_a_copy_never_runs_past_the_block(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Copies never asked for their findings end with the block on their own (here this
    process waits for them instead of stopping them)."""
    parent = os.getpid()
    statuses: list[int] = []

    def waited(pid: int, *ends: int) -> None:
        for end in ends:
            os.close(end)
        statuses.append(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))

    monkeypatch.setattr(twins, "abandon", waited)
    with twinned():
        exchanged(PARTS, _square_all, _alike, _alike)
    if os.getpid() != parent:  # a copy that got out of the block
        (tmp_path / f"escaped-{os.getpid()}").touch()
        os._exit(0)
    assert statuses == [1, 1, 1]
    assert list(tmp_path.iterdir()) == []


def test_a_ctrl_c_while_forking_leaves_no_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C pressed while a copy is forked comes once the copy is on record: it is
    stopped with the block."""
    started: list[int] = []
    fork = os.fork

    def interrupted() -> int:
        pid = fork()
        if pid:
            started.append(pid)
            # To this thread (the test may run beside others): held back until the copy
            # is on record.
            signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        return pid

    monkeypatch.setattr(twins.os, "fork", interrupted)
    # Ctrl-C raises KeyboardInterrupt here (a process started in the background ignores it).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt), twinned():
            exchanged([[1], [2]], _square_all, _alike, _alike)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert len(started) == 1
    assert _ended(started[0])


def test_what_a_copy_sends_that_cannot_be_taken_is_made_here(
    caplog: pytest.LogCaptureFixture,
) -> None:
    parent = os.getpid()

    def back(sent: list[int]) -> list[int]:
        if os.getpid() == parent:
            raise ValueError("garbled")
        return sent

    with caplog.at_level(logging.WARNING, logger="mfls"), twinned():
        exchanged(PARTS, _square_all, _alike, _alike)
        made = made_beside(PARTS, _square_all, _square_all, back)
    assert made == SQUARES
    assert caplog.text.count("a forked process sent garbage (garbled)") == len(PARTS) - 1


def test_a_copy_that_saw_other_documents_is_not_taken(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """What decides the cut (here: the process id) differs in a copy: its part is made
    here."""
    with caplog.at_level(logging.WARNING, logger="mfls"), twinned():
        exchanged(PARTS, _square_all, _alike, _alike)
        made = made_beside(PARTS, _square_all, _square_all, _alike, os.getpid())
    assert made == SQUARES
    assert caplog.text.count("a forked process saw other files") == len(PARTS) - 1


KILLED = """
import os, signal, sys, time
from mfls.workspace.twins import exchanged, twinned
with twinned():
    pids = exchanged([[0], [1], [2]], lambda part: os.getpid(), int, int)
    if os.getpid() == pids[0]:
        print(*pids[1:], flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(60)
"""


def test_copies_end_with_a_killed_check() -> None:
    done = subprocess.run(
        [sys.executable, "-c", KILLED],
        capture_output=True,
        text=True,
        timeout=60,
        env=environment(),
    )
    assert done.returncode == -signal.SIGKILL
    copies = [int(pid) for pid in done.stdout.split()]
    assert len(copies) == 2
    assert _soon_ended(copies)
