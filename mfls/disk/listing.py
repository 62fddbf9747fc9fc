"""Listing the files under a folder: `walk`, which never leaves the folder it was given."""

from __future__ import annotations

import os
from collections.abc import Collection
from dataclasses import dataclass
from typing import Final

from mfls.disk.problems import LOOP, OUTSIDE, DiskProblem
from mfls.disk.reading import inside

MAX_DOCUMENTS: Final = 20_000
"""At most this many files are listed under one folder."""

SKIPPED_DIRECTORIES: Final = frozenset({"node_modules", "__pycache__"})
"""Besides these, directories whose name starts with `.` are not walked."""


@dataclass(frozen=True, slots=True)
class Listing:
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
    files: list[str] = []
    found: list[str] = []
    problems: list[DiskProblem] = []
    if "\0" in root:
        return Listing(), (DiskProblem(root, "cannot list it (embedded null byte)"),)
    real_root = os.path.realpath(root)
    seen: set[str] = set()
    pending = [root]
    limited = False
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
                if entry.name in landmarks:
                    found.append(entry.path)
                elif len(files) < max_files:
                    files.append(entry.path)
                elif not limited:
                    limited = True
                    problems.append(
                        DiskProblem(
                            root, f"listing stopped after {max_files} files (the document limit)"
                        )
                    )
        pending.extend(reversed(subdirectories))
    return Listing(tuple(files), tuple(found)), tuple(problems)
