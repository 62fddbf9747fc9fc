"""Every disk access of the workspace: walking course folders and reading files.

A file that cannot be used is skipped with one log line on the `mfls` logger; nothing
here raises for a bad file, and nothing leaves the root it was asked to read.
"""

from __future__ import annotations

import logging
import os
import stat
from dataclasses import dataclass, field
from typing import Final

from mfls.workspace.config import COURSE_FILE

log = logging.getLogger("mfls")

MAX_FILE_BYTES: Final = 8 * 1024 * 1024
"""Files larger than this (8 MiB) are not indexed."""

MAX_DOCUMENTS: Final = 20_000
"""At most this many files are listed under one workspace folder."""

SKIPPED_DIRECTORIES: Final = frozenset({"node_modules", "__pycache__"})
"""Besides these, directories whose name starts with `.` are not walked."""


@dataclass
class Listing:
    """What a walk found: files (absolute paths) and directories holding a course file."""

    files: list[str] = field(default_factory=list)
    course_roots: list[str] = field(default_factory=list)


def inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def walk(root: str, max_documents: int = MAX_DOCUMENTS) -> Listing:
    """List the regular files under `root`, never following a link out of it or in a loop."""
    listing = Listing()
    real_root = os.path.realpath(root)
    seen: set[str] = set()
    pending = [root]
    limit_logged = False
    while pending:
        directory = pending.pop()
        real = os.path.realpath(directory)
        if real in seen:
            log.warning("skipped %s: directory loop through a symbolic link", directory)
            continue
        if not inside(real, real_root):
            log.warning("skipped %s: symbolic link leaves the course root %s", directory, root)
            continue
        seen.add(real)
        try:
            with os.scandir(directory) as entries:
                children = sorted(entries, key=lambda entry: entry.name)
        except OSError as error:
            log.warning("skipped %s: cannot list it (%s)", directory, error.strerror or error)
            continue
        subdirectories: list[str] = []
        for entry in children:
            try:
                is_dir = entry.is_dir()
                is_file = entry.is_file()
            except OSError:
                continue
            if is_dir:
                if not entry.name.startswith(".") and entry.name not in SKIPPED_DIRECTORIES:
                    subdirectories.append(entry.path)
            elif is_file:
                if entry.name == COURSE_FILE:
                    listing.course_roots.append(directory)
                elif len(listing.files) < max_documents:
                    listing.files.append(entry.path)
                elif not limit_logged:
                    limit_logged = True
                    log.warning(
                        "stopped listing %s after %d files (the document limit)",
                        root,
                        max_documents,
                    )
        pending.extend(reversed(subdirectories))
    return listing


def read_text(path: str, root: str | None, max_bytes: int = MAX_FILE_BYTES) -> str | None:
    """The UTF-8 text of `path` with its line endings as written, or None (logged).

    Only a regular file is read: a FIFO, socket or device is skipped without being opened
    in a way that could block, and a path resolving outside `root` is not opened at all.
    """
    try:
        real = os.path.realpath(path)
        if root is not None and not inside(real, os.path.realpath(root)):
            log.warning("skipped %s: it resolves outside the course root %s", path, root)
            return None
        if not _regular(path, os.stat(real).st_mode):
            return None
        descriptor = os.open(real, _READ_FLAGS)
        with open(descriptor, "rb") as stream:
            status = os.fstat(descriptor)
            if not _regular(path, status.st_mode):
                return None
            if status.st_size > max_bytes:
                log.warning(
                    "skipped %s: %d bytes is over the %d-byte limit",
                    path,
                    status.st_size,
                    max_bytes,
                )
                return None
            data = stream.read(max_bytes + 1)
    except FileNotFoundError:
        log.warning("skipped %s: it no longer exists", path)
        return None
    except OSError as error:
        log.warning("skipped %s: unreadable (%s)", path, error.strerror or error)
        return None
    if len(data) > max_bytes:
        log.warning("skipped %s: it grew over the %d-byte limit", path, max_bytes)
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        log.warning("skipped %s: not valid UTF-8 (byte %d)", path, error.start)
        return None


_READ_FLAGS: Final = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_CLOEXEC", 0)
)
"""Opening never waits for a FIFO's writer, nor follows a link swapped in after the check."""


def _regular(path: str, mode: int) -> bool:
    if stat.S_ISREG(mode):
        return True
    kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
    log.warning("skipped %s: it is %s", path, kind)
    return False


def exists(path: str) -> bool:
    return os.path.exists(path)


def is_directory(path: str) -> bool:
    return os.path.isdir(path)
