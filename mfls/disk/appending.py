"""`append_line`: add one line to a file inside a folder, atomically and durably.

The line is written with one `write` to a descriptor opened `O_APPEND` (so concurrent
appenders never interleave inside a line), then fsynced. Missing folders between the
root and the file are created; a link anywhere on the way (or at the file), a path
resolving outside the root and anything but a regular file are refused. Nothing
raises: the problems met are returned as data (an empty list when the line is written).
"""

from __future__ import annotations

import os
import stat

from mfls.disk.problems import OUTSIDE, UNUSABLE, DiskProblem

_FLAGS = (
    os.O_WRONLY
    | os.O_APPEND
    | os.O_CREAT
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
)


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def append_line(path: str, line: str, root: str) -> list[DiskProblem]:
    """Append `line` (one line of text ending in a line feed) to `path`, a file inside
    `root`, creating it and its folders when missing."""
    if not line.endswith("\n") or "\n" in line[:-1] or "\r" in line:
        return [DiskProblem(path, "not one line of text; nothing was written")]
    try:
        return _append(os.path.abspath(path), line.encode("utf-8"), os.path.abspath(root))
    except OSError as error:
        return [DiskProblem(path, f"cannot append: {error.strerror or error}")]
    except UnicodeError:
        return [DiskProblem(path, "the line is not valid UTF-8 text; nothing was written")]


def _append(path: str, data: bytes, root: str) -> list[DiskProblem]:
    if not _inside(os.path.dirname(path), root):
        return [DiskProblem(path, f"outside the folder {root}", OUTSIDE)]
    real_root = os.path.realpath(root)
    relative = os.path.relpath(os.path.dirname(path), root)
    created: list[str] = []
    current = root
    for part in [] if relative == os.curdir else relative.split(os.sep):
        current = os.path.join(current, part)
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            os.mkdir(current, 0o755)
            created.append(current)
            continue
        if stat.S_ISLNK(info.st_mode):
            return [DiskProblem(path, f"{current} is a link; nothing was written", OUTSIDE)]
        if not stat.S_ISDIR(info.st_mode):
            return [DiskProblem(path, f"{current} is not a folder; nothing was written")]
    existed = os.path.lexists(path)
    try:
        descriptor = os.open(path, _FLAGS, 0o644)
    except OSError:
        if os.path.islink(path):
            return [DiskProblem(path, "a link; nothing was written", OUTSIDE)]
        if os.path.lexists(path) and not os.path.isfile(path):
            return [DiskProblem(path, "not a regular file; nothing was written", UNUSABLE)]
        raise
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return [DiskProblem(path, "not a regular file; nothing was written", UNUSABLE)]
        if not _inside(os.path.realpath(path), real_root):
            return [DiskProblem(path, f"resolves outside {root}; nothing was written", OUTSIDE)]
        written = os.write(descriptor, data)
        if written != len(data):
            return [DiskProblem(path, f"only {written} of {len(data)} bytes were appended")]
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
    if not existed:  # the new names must survive a crash too
        for folder in [path, *reversed(created)]:
            _sync_folder(os.path.dirname(folder))
    return []


def _sync_folder(folder: str) -> None:
    try:
        descriptor = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)
