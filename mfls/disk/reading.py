"""Reading one file safely: regular files only, never blocking, bounded, inside a root.

Every read of every layer comes here. Nothing raises for a bad file and nothing logs:
a file that cannot be used comes back as a `DiskProblem` saying why.
"""

from __future__ import annotations

import os
import stat
from typing import Final

from mfls.disk.problems import GONE, LIMIT, OUTSIDE, DiskProblem, limit_from_environment

MAX_FILE_BYTES: Final = limit_from_environment("MFLS_MAX_FILE_BYTES", 8 * 1024 * 1024)
"""Files larger than this (8 MiB; the environment's `MFLS_MAX_FILE_BYTES` when set) are
not read."""

CHUNK_BYTES: Final = 1024 * 1024
"""`contains` reads a file this many bytes at a time."""

_READ_FLAGS: Final = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
"""Opening never waits for a FIFO's writer, nor follows a link swapped in after the check."""

_KINDS: Final = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def inside(path: str, root: str) -> bool:
    """True when `path` is `root` or lies under it (both already absolute and normal)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def real_path(path: str) -> str:
    """`path` with every link resolved (absolute); never raises."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return os.path.abspath(path)


def not_regular(mode: int) -> str | None:
    """Why a file of this mode is not read, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    for test, kind in _KINDS:
        if test(mode):
            return f"not a regular file ({kind})"
    return "not a regular file"


def _error(error: OSError) -> str:
    return str(error.strerror or error)


def _open_regular(path: str, root: str | None) -> tuple[int, int] | DiskProblem:
    """An open descriptor of `path`'s target and its size, or why not.

    The target must be a regular file, and inside `root` (resolved) when one is given.
    """
    try:
        real = os.path.realpath(path)
        if root is not None and not inside(real, os.path.realpath(root)):
            return DiskProblem(path, f"it resolves outside the course root {root}", OUTSIDE)
        why = not_regular(os.stat(real).st_mode)
        if why is not None:
            return DiskProblem(path, why)
        descriptor = os.open(real, _READ_FLAGS)
    except FileNotFoundError:
        return DiskProblem(path, "it no longer exists", GONE)
    except (OSError, ValueError) as error:  # ValueError: a NUL in the name
        reason = _error(error) if isinstance(error, OSError) else "its name holds a NUL"
        return DiskProblem(path, f"unreadable ({reason})")
    try:
        status = os.fstat(descriptor)
    except OSError as error:
        os.close(descriptor)
        return DiskProblem(path, f"unreadable ({_error(error)})")
    why = not_regular(status.st_mode)
    if why is not None:
        os.close(descriptor)
        return DiskProblem(path, why)
    return descriptor, status.st_size


def read_descriptor(descriptor: int, limit: int) -> bytes:
    """At most `limit` bytes from an open descriptor, up to its end."""
    chunks: list[bytes] = []
    left = limit
    while left > 0:
        chunk = os.read(descriptor, left)
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _read(path: str, root: str | None, max_bytes: int, *, check_size: bool) -> bytes | DiskProblem:
    opened = _open_regular(path, root)
    if isinstance(opened, DiskProblem):
        return opened
    descriptor, size = opened
    if check_size and size > max_bytes:
        os.close(descriptor)
        return DiskProblem(path, f"{size} bytes is over the {max_bytes}-byte limit", LIMIT)
    try:
        data = read_descriptor(descriptor, max_bytes + 1)
    except OSError as error:
        return DiskProblem(path, f"unreadable ({_error(error)})")
    finally:
        os.close(descriptor)
    if check_size and len(data) > max_bytes:
        return DiskProblem(path, f"it grew over the {max_bytes}-byte limit", LIMIT)
    return data


def read_bytes(
    path: str, root: str | None = None, max_bytes: int = MAX_FILE_BYTES
) -> tuple[bytes | None, tuple[DiskProblem, ...]]:
    """The bytes of the regular file `path`, or None and why not.

    A FIFO, socket or device is never opened in a way that could block; a path resolving
    outside `root` is not opened at all; a file over `max_bytes` is not read.
    """
    found = _read(path, root, max_bytes, check_size=True)
    if isinstance(found, DiskProblem):
        return None, (found,)
    return found, ()


def read_prefix(
    path: str, root: str | None = None, max_bytes: int = MAX_FILE_BYTES
) -> tuple[bytes | None, tuple[DiskProblem, ...]]:
    """At most the first `max_bytes + 1` bytes of `path`, however large the file is."""
    found = _read(path, root, max_bytes, check_size=False)
    if isinstance(found, DiskProblem):
        return None, (found,)
    return found, ()


def read_text(
    path: str, root: str | None = None, max_bytes: int = MAX_FILE_BYTES
) -> tuple[str | None, tuple[DiskProblem, ...]]:
    """The UTF-8 text of `path` with its line endings as written, or None and why not."""
    return utf8_text(path, *read_bytes(path, root, max_bytes))


def utf8_text(
    path: str, data: bytes | None, problems: tuple[DiskProblem, ...]
) -> tuple[str | None, tuple[DiskProblem, ...]]:
    """A read's bytes as UTF-8 text, or None and why not."""
    if data is None:
        return None, problems
    try:
        return data.decode("utf-8"), ()
    except UnicodeDecodeError as error:
        return None, (DiskProblem(path, f"not valid UTF-8 (byte {error.start})"),)


def contains(path: str, needle: bytes, root: str | None = None) -> bool | None:
    """Whether the regular file `path` holds `needle`, read in bounded chunks whatever its
    size; None when it cannot be read."""
    opened = _open_regular(path, root)
    if isinstance(opened, DiskProblem):
        return None
    descriptor, _ = opened
    keep = max(len(needle) - 1, 0)
    tail = b""
    try:
        while chunk := os.read(descriptor, CHUNK_BYTES):
            window = tail + chunk
            if needle in window:
                return True
            tail = window[-keep:] if keep else b""
    except OSError:
        return None
    finally:
        os.close(descriptor)
    return False


def is_regular_file(path: str) -> bool:
    """True for a regular file (through links); never raises."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def exists(path: str) -> bool:
    """True when something (a file of any kind, a dangling link excepted) is at `path`."""
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def lexists(path: str) -> bool:
    """True when `path` names anything, a dangling link included."""
    try:
        os.lstat(path)
    except (OSError, ValueError):
        return False
    return True


def is_directory(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def can_list(path: str) -> bool:
    """True when the directory `path` may be listed and entered."""
    try:
        return os.access(path, os.R_OK | os.X_OK)
    except (OSError, ValueError):
        return False


def nearest_holding(directory: str, name: str, boundary: str | None = None) -> str | None:
    """The nearest directory from `directory` up to `boundary` (or the file system root)
    holding a regular file called `name`."""
    while boundary is None or inside(directory, boundary):
        if is_regular_file(os.path.join(directory, name)):
            return directory
        if directory == boundary:
            break
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    return None
