"""Put new contents of several files in place so that no save by another program is lost.

Editors take no locks, so a check made before writing can always be overtaken. Instead,
each new content is written to a temporary file beside its original (same owner and
mode), and then *exchanged* with the original in one atomic step: afterwards the new
content is at the original's name and the original file, exactly as it was at that
instant, is at the temporary name. That old file is compared with the bytes the edit was
computed from; if another program saved in the meantime the two are swapped back and the
whole change is undone, every already exchanged file included. A deleted file makes the
exchange fail (ENOENT), so it is never re-created. The old files are removed only after
every file was exchanged and checked once more. The outcome is data: `Applied`, or a
`ReplaceFailure` saying what every file holds.

Platforms. Linux (3.15+, on ext4, xfs, btrfs, tmpfs and most local file systems) has
`renameat2(RENAME_EXCHANGE)`, called through ctypes; macOS has `renamex_np(RENAME_SWAP)`
on APFS (same promise, not tested here). Where neither works (Windows, an older kernel or
C library, a file system without exchange such as some network or FUSE mounts) `swap`
falls back to: hard-link the original to a keep name, `os.replace` the new file over it,
move the kept original to the temporary name. The after-the-fact check still sees every
save that modifies the original file (an in-place write), but a save that *replaces* the
file (write a copy, rename it over) landing between the link and the replace is lost,
and a file deleted in that same instant is re-created: that window is what the fallback
gives up. On Windows, moreover, `os.replace` fails while another program holds the file
open without delete sharing (the change is then undone), ownership lives in ACLs that
are not copied, only the read-only bit of the mode exists, and directories cannot be
fsynced. Extended attributes and ACLs are not copied on any platform.

`before_swap` (a test-only callback) and the `MFLS_TEST_PAUSE_BEFORE_SWAP` environment
variable (seconds to sleep) act between the last check of a file and its exchange.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple, Protocol

from mfls.disk.problems import ReplaceFailure

TEMP_SUFFIX = ".mfls-tmp"
KEEP_SUFFIX = ".mfls-old"
PAUSE_ENV = "MFLS_TEST_PAUSE_BEFORE_SWAP"

before_swap: Callable[[int, Path], None] | None = None
"""Test-only: called with (index, path) between the last check of a file and its swap."""


class ExchangeUnsupported(OSError):
    """This system or file system cannot exchange two names atomically."""


class Change(Protocol):
    @property
    def path(self) -> Path: ...
    @property
    def original(self) -> bytes: ...
    @property
    def new(self) -> bytes: ...


class Recorder(Protocol):
    """Where `apply` records its progress (the rename journal), so a crash can be undone."""

    def begin(self, changes: Sequence[Change]) -> str | None:
        """Record the start; a message when the change must not start (nothing done)."""

    def phase(self, phase: str) -> None: ...
    def finish(self) -> None: ...


class Applied(NamedTuple):
    files: int
    replaced: int  # how many files were put in place by the fallback (no atomic exchange)


def temp_path(path: Path) -> Path:
    return path.with_name(f".{path.name}{TEMP_SUFFIX}")


def keep_path(path: Path) -> Path:
    return path.with_name(f".{path.name}{KEEP_SUFFIX}")


# ----- the atomic exchange ---------------------------------------------------------

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2  # Linux <linux/fs.h>
_RENAME_SWAP = 2  # macOS <stdio.h>
_SYS_RENAMEAT2 = {"x86_64": 316, "amd64": 316, "aarch64": 276, "arm64": 276, "i686": 353}
_UNSUPPORTED = {errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, getattr(errno, "ENOTSUP", -1)}

_Exchange = Callable[[bytes, bytes], int]


def _load() -> _Exchange | None:
    # Imported here: ctypes and platform cost a command that never writes ~5 ms to load.
    import ctypes
    import platform

    try:
        if sys.platform.startswith("linux"):
            # The symbols the process already has: `ctypes.util.find_library` would start
            # `ldconfig` (a process) just to find the C library.
            libc = ctypes.CDLL(None, use_errno=True)
            renameat2 = getattr(libc, "renameat2", None)
            if renameat2 is not None:
                renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
                renameat2.argtypes += [ctypes.c_char_p, ctypes.c_uint]
                return lambda a, b: int(renameat2(_AT_FDCWD, a, _AT_FDCWD, b, _RENAME_EXCHANGE))
            number = _SYS_RENAMEAT2.get(platform.machine().lower())
            if number is None:
                return None
            syscall = libc.syscall
            return lambda a, b: int(
                syscall(number, _AT_FDCWD, a, _AT_FDCWD, b, ctypes.c_uint(_RENAME_EXCHANGE))
            )
        if sys.platform == "darwin":
            libc = ctypes.CDLL(None, use_errno=True)
            renamex = getattr(libc, "renamex_np", None)
            if renamex is not None:
                renamex.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_uint]
                return lambda a, b: int(renamex(a, b, _RENAME_SWAP))
    except (OSError, AttributeError):
        return None
    return None


_loaded: list[_Exchange | None] = []  # the exchange call once looked up, if any
_no_exchange_on: set[int] = set()  # devices where exchange failed as unsupported


def _exchange_call() -> _Exchange | None:
    if not _loaded:
        _loaded.append(_load())
    return _loaded[0]


def exchange_available() -> bool:
    return _exchange_call() is not None


def exchange(first: Path, second: Path) -> None:
    """Swap the two names in one atomic step; `ExchangeUnsupported` where impossible."""
    call = _exchange_call()
    if call is None:
        raise ExchangeUnsupported(errno.ENOSYS, "no atomic exchange on this system")
    if call(os.fsencode(first), os.fsencode(second)) == 0:
        return
    import ctypes  # loaded by the call above

    code = ctypes.get_errno()
    if code in _UNSUPPORTED:
        raise ExchangeUnsupported(code, os.strerror(code), str(second))
    raise OSError(code, os.strerror(code), str(second))


def swap(temp: Path, path: Path) -> bool:
    """Afterwards `path` holds what `temp` held and `temp` what `path` held.

    True when done in one atomic exchange, False when by the fallback (module docstring).
    A missing `path` raises FileNotFoundError and creates nothing."""
    try:
        device = os.stat(temp).st_dev
    except OSError:
        device = -1
    if device not in _no_exchange_on and _exchange_call() is not None:
        try:
            exchange(temp, path)
            return True
        except ExchangeUnsupported:
            _no_exchange_on.add(device)
    _swap_by_replace(temp, path)
    return False


def _swap_by_replace(temp: Path, path: Path) -> None:
    keep = keep_path(path)
    try:
        os.link(path, keep, follow_symlinks=False)
    except (FileNotFoundError, FileExistsError):
        raise
    except OSError:  # no hard links here: keep a copy instead
        status = os.stat(path)
        _write_new(keep, path.read_bytes(), status)
    try:
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            keep.unlink()
        raise
    try:
        os.replace(keep, temp)
    except BaseException:  # put both back as they were before the swap
        with contextlib.suppress(OSError):
            os.link(path, temp, follow_symlinks=False)
            os.replace(keep, path)
        raise


# ----- temporary files -------------------------------------------------------------


def write_temp(path: Path, data: bytes) -> Path:
    """Write `data` to `path`'s temporary name, with `path`'s owner and mode."""
    temp = temp_path(path)
    _write_new(temp, data, os.stat(path))
    return temp


def _write_new(target: Path, data: bytes, like: os.stat_result) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    descriptor = os.open(target, flags | getattr(os, "O_BINARY", 0), 0o600)
    try:
        with open(descriptor, "wb", closefd=True) as handle:
            handle.write(data)
            handle.flush()
            _keep_owner_and_mode(handle.fileno(), target, like)
    except BaseException:
        with contextlib.suppress(OSError):
            target.unlink()
        raise


def _keep_owner_and_mode(descriptor: int, target: Path, like: os.stat_result) -> None:
    fchown = getattr(os, "fchown", None)
    if fchown is not None:
        mine = os.fstat(descriptor)
        if (mine.st_uid, mine.st_gid) != (like.st_uid, like.st_gid):
            try:
                fchown(descriptor, like.st_uid, like.st_gid)
            except PermissionError as error:
                raise PermissionError(
                    error.errno,
                    f"cannot give the new copy the owner {like.st_uid}:{like.st_gid} "
                    "of the original",
                    str(target),
                ) from error
    fchmod = getattr(os, "fchmod", None)
    if fchmod is not None:
        fchmod(descriptor, stat.S_IMODE(like.st_mode))
    else:
        os.chmod(target, stat.S_IMODE(like.st_mode))


def flush(paths: Sequence[Path]) -> None:
    """Make written files durable: one `sync()` where the system has it, else fsyncs."""
    if hasattr(os, "sync"):
        os.sync()
        return
    for path in paths:
        with open(path, "rb+") as handle:
            os.fsync(handle.fileno())


def sync_directories(paths: Sequence[Path]) -> None:
    """Make renames in the directories of `paths` durable (nothing to do on Windows)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    for directory in sorted({str(p.parent) for p in paths}):
        with contextlib.suppress(OSError):
            descriptor = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
            try:
                os.fsync(descriptor)
            finally:
                os.close(descriptor)


def read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


# ----- the whole change ------------------------------------------------------------


def swap_back(temp: Path, path: Path, new: bytes, swap: Callable[[Path, Path], object]) -> bool:
    """Undo one swap: the kept file goes back to `path`; the temporary name is removed.

    When `path` no longer holds `new` (someone saved over it after the swap) that save is
    put back in place instead, and False is returned."""
    swap(temp, path)
    if read_or_none(temp) != new:
        swap(temp, path)
        temp.unlink()
        return False
    temp.unlink()
    return True


def apply(
    changes: Sequence[Change],
    *,
    write_temp: Callable[[Path, bytes], Path] = write_temp,
    swap: Callable[[Path, Path], object] = swap,
    flush: Callable[[Sequence[Path]], None] = flush,
    journal: Recorder | None = None,
) -> Applied | ReplaceFailure:
    """Apply every change or none, never overwriting a save made while it runs.

    The caller has checked that every file holds its `original` bytes (the check that
    matters is made here, after each swap). A `ReplaceFailure` with `changed_on_disk`
    says which file moved (everything was undone); otherwise the message says what could
    not be put back. An interrupt is raised again once everything is undone.
    """
    if journal is not None:
        try:
            refused = journal.begin(changes)
        except OSError as error:
            return ReplaceFailure(f"cannot write the rename journal ({error}); nothing was written")
        if refused is not None:
            return ReplaceFailure(refused, refused=True)
    temps: list[Path] = []
    swapped: list[tuple[Change, Path]] = []
    replaced = 0
    pause = float(os.environ.get(PAUSE_ENV) or 0)
    try:
        for change in changes:
            temps.append(write_temp(change.path, change.new))
        flush(temps)
        if journal is not None:
            journal.phase("swapping")
        for index, (change, temp) in enumerate(zip(changes, temps, strict=True)):
            if pause:
                time.sleep(pause)
            if before_swap is not None:
                before_swap(index, change.path)
            try:
                done = swap(temp, change.path)
            except FileNotFoundError as error:
                raise _Moved(change.path, deleted=True) from error
            swapped.append((change, temp))
            if done is False:
                replaced += 1
            if read_or_none(temp) != change.original:
                raise _Moved(change.path)
        for change, temp in swapped:
            if read_or_none(temp) != change.original:
                raise _Moved(change.path)
        sync_directories([c.path for c in changes])
    except BaseException as error:
        if journal is not None and swapped:
            with contextlib.suppress(OSError):
                journal.phase("undoing")
        problems, kept = _undo(swapped, swap)
        for temp in temps[len(swapped) :]:
            with contextlib.suppress(OSError):
                temp.unlink()
        if not problems and journal is not None:
            with contextlib.suppress(OSError):
                journal.finish()
        if not isinstance(error, Exception):
            raise
        return _failure(error, problems, kept, journal is not None)
    try:  # every file is renamed and checked: only the old copies remain to be removed
        if journal is not None:
            journal.phase("cleaning")
        for temp in temps:
            with contextlib.suppress(FileNotFoundError):
                temp.unlink()
        if journal is not None:
            journal.finish()
    except OSError as error:
        return ReplaceFailure(
            f"every file was renamed, but removing the old copies failed ({error}); "
            "`mfls rename --resume` finishes",
            unrestored=tuple(str(c.path) for c in changes),
        )
    return Applied(len(changes), replaced)


class _Moved(Exception):
    def __init__(self, path: Path, deleted: bool = False) -> None:
        super().__init__(str(path))
        self.path = path
        self.deleted = deleted


def _undo(
    swapped: Sequence[tuple[Change, Path]], swap: Callable[[Path, Path], object]
) -> tuple[list[str], list[str]]:
    """Swap every kept original back in place; list failures and saves kept instead."""
    problems: list[str] = []
    kept: list[str] = []
    for change, temp in reversed(swapped):
        try:
            if not swap_back(temp, change.path, change.new, swap):
                kept.append(str(change.path))
        except OSError as error:
            problems.append(f"{change.path} ({error.strerror or error}; see {temp})")
    return problems, kept


def _failure(
    error: Exception, problems: list[str], kept: list[str], journaled: bool
) -> ReplaceFailure:
    if problems:
        retry = "; the journal is kept: `mfls rename --undo` retries" if journaled else ""
        return ReplaceFailure(
            f"writing failed ({error}); could not restore {', '.join(problems)}{retry}",
            unrestored=tuple(problems),
        )
    also = f"; saves made meanwhile were kept in {', '.join(kept)}" if kept else ""
    if isinstance(error, _Moved):
        if error.deleted:
            return ReplaceFailure(
                f"{error.path} was deleted while the rename ran, and was not re-created; "
                f"the rename was undone: every other file holds what it held{also}",
                changed_on_disk=True,
            )
        return ReplaceFailure(
            f"{error.path} was saved by another program while the rename ran; the rename "
            f"was undone: every file holds what it held, that save included{also}",
            changed_on_disk=True,
        )
    return ReplaceFailure(f"writing failed ({error}); every file was left as it was{also}")
