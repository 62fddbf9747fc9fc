"""Work shared with forked copies of this process: each takes a part, this process takes
the first; what a copy made comes back pickled through a pipe.

A forked copy starts in a millisecond or two and already holds everything this process
built (a course's index, its facts), so only the parts' results travel. Forking is safe
only where no other thread can hold a lock across it (`fork_safe`); a copy that cannot
be started, fails or dies leaves its part to this process, which then does it itself:
the result never depends on how the work was shared.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

log = logging.getLogger("mfls")

PIPE_READ = 1 << 20
"""Bytes asked of a pipe at a time."""

Part = TypeVar("Part")
Result = TypeVar("Result")
Sent = TypeVar("Sent")


def fork_safe() -> bool:
    """Whether this process may fork copies of itself: Linux (elsewhere system libraries
    may not survive a fork) and no thread but this one."""
    return sys.platform.startswith("linux") and threading.active_count() == 1


def shared_out(
    parts: Sequence[Part],
    here: Callable[[Part], Result],
    there: Callable[[Part], Sent],
    back: Callable[[Sent], Result],
) -> list[Result]:
    """`here(part)` of each of `parts`, in order: the first made in this process, each
    other as `back(there(part))`, `there` run in a forked copy (`back` here, on what it
    sent). A part whose copy could not start or did not finish is made `here`."""
    children: list[tuple[int, int] | None] = []
    try:
        for part in parts[1:]:
            earlier = [child[1] for child in children if child is not None]
            children.append(_start(there, part, earlier))
        results = [here(parts[0])] if parts else []
        for index, child in enumerate(children, start=1):
            children[index - 1] = None  # `_collect` reaps it, whatever happens
            sent = None if child is None else _collect(*child)
            results.append(here(parts[index]) if sent is None else back(sent[0]))
        return results
    finally:
        for child in children:
            if child is not None:
                abandon(*child)


def even_runs(items: Sequence[Part], weights: Sequence[int], count: int) -> list[Sequence[Part]]:
    """`items` cut into `count` runs (some possibly empty) of about equal `weights`."""
    total = sum(weights)
    runs: list[Sequence[Part]] = []
    start = size = 0
    for index, weight in enumerate(weights):
        size += weight
        if size * count >= total * (len(runs) + 1) and len(runs) < count - 1:
            runs.append(items[start : index + 1])
            start = index + 1
    runs.append(items[start:])
    runs += [items[len(items) :] for _ in range(count - len(runs))]
    return runs


def _start(
    there: Callable[[Part], Sent], part: Part, earlier: Sequence[int]
) -> tuple[int, int] | None:
    """A forked copy making `there(part)` into a pipe: its process id and the pipe's
    reading end (None: it could not be started). `earlier`: the reading ends of the
    copies started before, which the copy closes. Ctrl-C is held back across the fork,
    so that it never finds the copy running this process's code."""
    import signal

    try:
        reading, writing = os.pipe()
    except OSError as error:
        log.warning("working in one process: no pipe (%s)", error)
        return None
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pid = os.fork()
    except OSError as error:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
        os.close(reading)
        os.close(writing)
        log.warning("working in one process: no process could be started (%s)", error)
        return None
    if pid == 0:  # the copy: never returns
        status = 1
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
            for other in (reading, *earlier):
                os.close(other)
            data = memoryview(pickled(there(part)))
            while data:
                data = data[os.write(writing, data) :]
            status = 0
        finally:
            os._exit(status)
    os.close(writing)
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
    except BaseException:  # a Ctrl-C held back until now: the copy is not on record yet
        abandon(pid, reading)
        raise
    return pid, reading


def _collect(pid: int, reading: int) -> tuple[Any] | None:
    """What the copy `pid` sent, in a one-tuple (None: it failed); the copy is reaped
    whatever happens (stopped first when this process is interrupted)."""
    pieces: list[bytes] = []
    try:
        while piece := os.read(reading, PIPE_READ):
            pieces.append(piece)
    except BaseException:
        abandon(pid, reading)
        raise
    os.close(reading)
    return loaded(b"".join(pieces)) if reaped(pid) else None


def reaped(pid: int) -> bool:
    """Whether the copy `pid`, waited for, ended well (a failure is logged)."""
    _, status = os.waitpid(pid, 0)
    if status != 0:
        code = os.waitstatus_to_exitcode(status)
        log.warning("working in one process: a forked process failed (status %s)", code)
    return status == 0


def pickled(value: object) -> bytes:
    """`value` as a copy sends it (`loaded` takes it back)."""
    import pickle  # loaded only by a process that forks

    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def loaded(data: bytes | None) -> tuple[Any] | None:
    """What a copy sent, unpickled, in a one-tuple (None: nothing came, or garbage, a
    truncated or garbled message: its part is redone here)."""
    import pickle  # loaded only by a process that forks

    if data is None:
        return None
    try:
        return (pickle.loads(data),)
    except Exception as error:
        log.warning("working in one process: a forked process sent garbage (%s)", error)
        return None


def abandon(pid: int, *ends: int) -> None:
    """Stop and reap a copy whose result is no longer wanted, its pipes' `ends` closed."""
    import signal

    for end in ends:
        with contextlib.suppress(OSError):
            os.close(end)
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.waitpid(pid, 0)
