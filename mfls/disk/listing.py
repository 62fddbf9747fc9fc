"""Listing the files under a folder: `walk`, which never leaves the folder it was given."""

from __future__ import annotations

import os
from collections.abc import Collection
from typing import Final, NamedTuple

from mfls.disk.problems import LIMIT, LOOP, OUTSIDE, DiskProblem, limit_from_environment
from mfls.disk.reading import inside

MAX_DOCUMENTS: Final = limit_from_environment("MFLS_MAX_DOCUMENTS", 20_000)
"""At most this many files are listed under one folder (20,000; the environment's
`MFLS_MAX_DOCUMENTS` when set)."""

SKIPPED_DIRECTORIES: Final = frozenset({"node_modules", "__pycache__"})
"""Besides these, directories whose name starts with `.` are not walked."""


class Listing(NamedTuple):
    """What a walk found, in walking order: regular files (absolute paths, at most the
    limit of them) and, apart and unlimited, the files named as one of the `landmarks`."""

    files: tuple[str, ...] = ()
    landmarks: tuple[str, ...] = ()


def walk(
    root: str, max_files: int = MAX_DOCUMENTS, *, landmarks: Collection[str] = ()
) -> tuple[Listing, tuple[DiskProblem, ...]]:
    """List the regular files under `root`, never following a link out of it or in a loop.

    A file whose name is in `landmarks` is listed in `Listing.landmarks` instead (not
    counted against `max_files`). Hidden and `SKIPPED_DIRECTORIES` are not entered.
    Entries that are neither files nor directories (FIFOs, sockets, devices, dangling
    links) are left out silently: they are no documents. Problems: directories that
    could not be listed or that a link leads out of the root or into a loop, and the
    limit when it stopped the listing.
    """
    collected = Collector(root, max_files, landmarks)
    problems = collected.problems
    if "\0" in root:
        return Listing(), (DiskProblem(root, "cannot list it (embedded null byte)"),)
    real_root = os.path.realpath(root)
    seen: set[str] = set()
    pending = [root]
    while pending:
        directory = pending.pop()
        real = os.path.realpath(directory)
        if real in seen:
            problems.append(DiskProblem(directory, "directory loop through a symbolic link", LOOP))
            continue
        if not inside(real, real_root):
            problems.append(
                DiskProblem(directory, f"symbolic link leaves the course root {root}", OUTSIDE)
            )
            continue
        seen.add(real)
        try:
            with os.scandir(directory) as entries:
                children = sorted(entries, key=lambda entry: entry.name)
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) else None
            problems.append(DiskProblem(directory, f"cannot list it ({reason or error})"))
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
                collected.add(entry.name, entry.path)
        pending.extend(reversed(subdirectories))
    return collected.result()


class Collector:
    """What a walk keeps, in walking order: files up to the limit, landmarks apart, and
    the problems met (the limit, once, among them)."""

    def __init__(self, root: str, max_files: int, landmarks: Collection[str]) -> None:
        self.root = root
        self.max_files = max_files
        self.landmarks = landmarks
        self.files: list[str] = []
        self.found: list[str] = []
        self.problems: list[DiskProblem] = []
        self._limited = False

    def add(self, name: str, path: str) -> None:
        if name in self.landmarks:
            self.found.append(path)
        elif len(self.files) < self.max_files:
            self.files.append(path)
        elif not self._limited:
            self._limited = True
            self.problems.append(
                DiskProblem(
                    self.root,
                    f"listing stopped after {self.max_files} files (the document limit)",
                    LIMIT,
                )
            )

    def result(self) -> tuple[Listing, tuple[DiskProblem, ...]]:
        return Listing(tuple(self.files), tuple(self.found)), tuple(self.problems)
