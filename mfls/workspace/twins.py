"""Copies of this process that go on with the same check beside it: forked while a big
course is scanned (`exchanged`), each scans a run of the texts, the processes swap what
they scanned, and each then holds the whole course, built by itself, and makes the
findings of its own run of documents (`made_beside`).

A copy forked after the course is built shares that memory with this process, and both
pay a page copy for each page either writes (every object they read: reference counts);
a copy forked before the scan shares little, so each process works at full speed on
objects of its own. This holds only inside `twinned()`, around code that runs alike in
every process (the same inputs give the same course): a copy writes nothing on standard
output or error, sends only through its pipes, and ends at the latest with the block. A
copy that fails, dies or sends garbage leaves its part to this process; the result
never depends on how the work was shared.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple, TypeVar

from mfls.disk.silence import silence_standard_streams
from mfls.workspace.forking import PIPE_READ, abandon, loaded, pickled, reaped

log = logging.getLogger("mfls")

Part = TypeVar("Part")
Result = TypeVar("Result")
Sent = TypeVar("Sent")

_LENGTH = 8  # bytes of a message's length, before its pickle
_PR_SET_PDEATHSIG = 1


class _Copy(NamedTuple):
    pid: int
    reading: int  # what the copy sends
    writing: int  # what it is sent


class Twins:
    """The copies started within one `twinned()` block, as this process sees them: the
    live copies by part (None: gone), or in a copy, its part and its pipes."""

    def __init__(self) -> None:
        self.started = False
        self.count = 1  # processes making findings together, copies gone or not
        self.copies: list[_Copy | None] = []
        self.part = 0
        self.pipes: tuple[int, int] = (-1, -1)  # in a copy: reading, writing


_scope: Twins | None = None


@contextlib.contextmanager
def twinned() -> Iterator[None]:
    """Within: the first scan that forks (`parallel.scan_texts`) starts copies that go on
    with the block; in a copy the block ends its process."""
    global _scope
    scope = _scope = Twins()
    try:
        yield
    finally:
        _scope = None
        if scope.part:
            os._exit(1)  # a copy whose part was never asked for
        for index, copy in enumerate(scope.copies):
            if copy is not None:
                scope.copies[index] = None
                abandon(*copy)


def may_start() -> bool:
    """Whether a scan may start copies: inside `twinned()`, none started yet."""
    return _scope is not None and not _scope.started


def beside() -> int:
    """Into how many parts work is cut: one per process started by `exchanged` (a part
    whose copy is gone is made here), 1 outside `twinned()` or before it."""
    return 1 if _scope is None else _scope.count


def exchanged(
    parts: Sequence[Part],
    here: Callable[[Part], Result],
    sent: Callable[[Result], Sent],
    back: Callable[[Sent], Result],
) -> list[Result]:
    """`here(part)` of each of `parts`, in order, in every process: this one makes the
    first, a forked copy each other; each copy sends `sent` of its result and receives
    those of the others (`back` makes them results again). `may_start()` must hold."""
    import signal

    scope = _scope
    assert scope is not None and not scope.started
    scope.started = True
    scope.count = max(1, len(parts))
    for index in range(1, len(parts)):
        # Ctrl-C is held back until the copy is on record, to be stopped with the block.
        held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            copy = _fork(scope)
            if scope.part != -1:
                scope.copies.append(copy)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        if scope.part == -1:  # this is the copy
            scope.part = index
            try:
                return _copy_exchange(scope, parts, here, sent, back)
            except BaseException:
                os._exit(1)
    results = [here(parts[0])] if parts else []
    blobs = [pickled(sent(results[0]))] if parts else []
    for index, copy in enumerate(scope.copies, start=1):
        # This process's part goes to the copy while the copy's comes back.
        data = None if copy is None else _swap(copy.reading, copy.writing, blobs[0])
        made = _made_back(loaded(data), back)
        if made is None:
            if copy is not None:
                log.warning("working in one process: a forked process failed")
                _drop(scope, index)
            results.append(here(parts[index]))
            blobs.append(pickled(sent(results[-1])))
        else:
            results.append(made[0])
            blobs.append(data or b"")
    for index, copy in enumerate(scope.copies, start=1):
        if copy is None:
            continue
        try:
            for at in range(1, len(blobs)):
                if at != index:  # the other copies' parts
                    _send(copy.writing, blobs[at])
        except OSError:
            _drop(scope, index)
    return results


def _copy_exchange(
    scope: Twins,
    parts: Sequence[Part],
    here: Callable[[Part], Result],
    sent: Callable[[Result], Sent],
    back: Callable[[Sent], Result],
) -> list[Result]:
    """A copy's side of `exchanged`: its part out, the others in, in order."""
    import pickle

    mine = here(parts[scope.part])
    reading, writing = scope.pipes
    data = _swap(reading, writing, pickled(sent(mine)))
    results = []
    for at in range(len(parts)):
        if at == scope.part:
            results.append(mine)
            continue
        if at > 0:
            data = _receive(reading)
        if data is None:
            raise EOFError("the process that forked this one sent nothing")
        results.append(back(pickle.loads(data)))
    return results


def made_beside(
    parts: Sequence[Part],
    here: Callable[[Part], Result],
    there: Callable[[Part], Sent],
    back: Callable[[Sent], Result],
    agreed: object = None,
) -> list[Result]:
    """`here(part)` of each of `parts` (one per process, `beside()`), in order, in this
    process: part i made by copy i as `back(there(part))`, or here where the copy is gone
    or did not see the same `agreed` (what decides the cut: a file changed meanwhile). A
    copy sends its part and ends its process."""

    scope = _scope
    assert scope is not None and scope.started
    if scope.part:
        status = 1
        try:
            mine = (agreed, there(parts[scope.part]))
            _send(scope.pipes[1], pickled(mine))
            status = 0
        finally:
            os._exit(status)
    results = [here(parts[0])]
    for index in range(1, len(parts)):
        copy = scope.copies[index - 1] if index - 1 < len(scope.copies) else None
        got = None
        if copy is not None:
            got = loaded(_receive(copy.reading))
            _drop(scope, index, status=True)
        if got is not None and got[0][0] != agreed:
            log.warning("working in one process: a forked process saw other files")
            got = None
        made = None if got is None else _made_back((got[0][1],), back)
        results.append(here(parts[index]) if made is None else made[0])
    return results


def _made_back(sent: tuple[Any] | None, back: Callable[[Any], Result]) -> tuple[Result] | None:
    """`back` of what a copy sent, in a one-tuple (None: nothing, or garbage)."""
    if sent is None:
        return None
    try:
        return (back(sent[0]),)
    except Exception as error:
        log.warning("working in one process: a forked process sent garbage (%s)", error)
        return None


def _fork(scope: Twins) -> _Copy | None:
    """A forked copy with a pipe each way (None: none could be started); in the copy,
    None with `scope.part` -1 and its own ends in `scope.pipes`."""
    try:
        up_read, up_write = os.pipe()
        down_read, down_write = os.pipe()
    except OSError as error:
        log.warning("working in one process: no pipe (%s)", error)
        return None
    parent = os.getpid()
    try:
        pid = os.fork()
    except OSError as error:
        for end in (up_read, up_write, down_read, down_write):
            os.close(end)
        log.warning("working in one process: no process could be started (%s)", error)
        return None
    if pid == 0:
        _become_copy(scope, (down_read, up_write), (up_read, down_write), parent)
        return None
    os.close(up_write)
    os.close(down_read)
    return _Copy(pid, up_read, down_write)


def _become_copy(
    scope: Twins, mine: tuple[int, int], parents: tuple[int, int], parent: int
) -> None:
    """A fresh copy: silent (its output and errors go nowhere), holding only its own
    pipes' ends and no other copy, and ended when `parent` ends."""
    for end in parents:
        os.close(end)
    for copy in scope.copies:
        if copy is not None:
            os.close(copy.reading)
            os.close(copy.writing)
    scope.copies = []
    scope.part = -1
    scope.pipes = mine
    silence_standard_streams()
    _die_with(parent)


def _die_with(parent: int) -> None:
    """This process is killed when `parent` ends (Linux's `PR_SET_PDEATHSIG`), or ends
    now if it already has: a check stopped by a signal leaves no copy working."""
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def _swap(reading: int, writing: int, data: bytes) -> bytes | None:
    """`data` sent as one message while one is received (None: the pipes failed or ended
    first): two processes swapping big messages would each wait for the other to read."""
    import select

    out = memoryview(len(data).to_bytes(_LENGTH, "little") + data)
    got = bytearray()
    wanted = _LENGTH
    poll = select.poll()
    poll.register(reading, select.POLLIN)
    poll.register(writing, select.POLLOUT)
    os.set_blocking(writing, False)
    try:
        while out or len(got) < wanted:
            for fd, event in poll.poll():
                if fd == writing and out:
                    if event & select.POLLOUT:
                        with contextlib.suppress(BlockingIOError):
                            out = out[os.write(writing, out) :]
                    else:  # the other end is closed
                        return None
                    if not out:
                        poll.unregister(writing)
                elif fd == reading and len(got) < wanted:
                    piece = os.read(reading, min(wanted - len(got), PIPE_READ))
                    if not piece:
                        return None
                    got += piece
                    if len(got) == _LENGTH:
                        wanted += int.from_bytes(got, "little")
                    if len(got) == wanted:
                        poll.unregister(reading)
    except OSError:
        return None
    finally:
        with contextlib.suppress(OSError):
            os.set_blocking(writing, True)
    return bytes(got[_LENGTH:])


def _send(writing: int, data: bytes) -> None:
    message = memoryview(len(data).to_bytes(_LENGTH, "little") + data)
    while message:
        message = message[os.write(writing, message) :]


def _receive(reading: int) -> bytes | None:
    """One message (None: the pipe ended or failed before all of it came)."""
    try:
        head = _exactly(reading, _LENGTH)
        if head is None:
            return None
        return _exactly(reading, int.from_bytes(head, "little"))
    except OSError:
        return None


def _exactly(reading: int, size: int) -> bytes | None:
    pieces: list[bytes] = []
    left = size
    while left:
        piece = os.read(reading, min(left, PIPE_READ))
        if not piece:
            return None
        pieces.append(piece)
        left -= len(piece)
    return b"".join(pieces)


def _drop(scope: Twins, index: int, status: bool = False) -> None:
    """Copy `index` is done with (reaped; stopped first unless `status`: it ended)."""
    copy = scope.copies[index - 1]
    scope.copies[index - 1] = None
    if copy is None:
        return
    if status:
        for end in (copy.reading, copy.writing):
            with contextlib.suppress(OSError):
                os.close(end)
        with contextlib.suppress(OSError):
            reaped(copy.pid)
        return
    abandon(*copy)
