"""Every disk access of the command line: what a given path is, the documents under a
folder, the text of a file or of standard input. No other module of `mfls.cli` reads
the file system."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Literal, NamedTuple

from mfls import disk
from mfls.cli.output import say
from mfls.workspace.config import MARKDOWN_SUFFIXES


class Unusable(NamedTuple):
    """A path the command line cannot use, and why (the reason a message shows)."""

    reason: str


def classify(path: str) -> Literal["folder", "file"] | Unusable:
    """Whether `path` (absolute) is a readable folder, a file, or unusable (and why)."""
    if disk.is_directory(path):
        if not disk.can_list(path):
            return Unusable("permission denied")
        return "folder"
    if disk.is_regular_file(path):
        return "file"
    return Unusable("no such file or folder" if not disk.lexists(path) else "not a file")


def markdown_files(folder: str) -> list[str]:
    """The MarkdownFlow documents under `folder`, walked as the workspace walks it."""
    listing, _ = disk.walk(folder)
    return [p for p in listing.files if p.lower().endswith(MARKDOWN_SUFFIXES)]


def decode_source(data: bytes) -> str:
    """UTF-8 as given: invalid bytes become U+FFFD, a BOM stays text, line ends stay."""
    return data.decode("utf-8", errors="replace")


def read_source(path: str, root: str | None = None) -> str | Unusable:
    """The text of the file at `path` (see `decode_source`), or why it cannot be read.

    `-` is standard input. With `root`, a path resolving outside it is not read.
    """
    if path == "-":
        return decode_source(sys.stdin.buffer.read())
    data, problems = disk.read_bytes(path, root)
    if data is None:
        return Unusable(problems[0].reason if problems else "unreadable")
    return decode_source(data)


def warn_pending_renames(command: str, roots: Sequence[str]) -> None:
    """On stderr, one warning per interrupted rename pending at the root of any of the
    courses at `roots` (its journal, `mfls.disk.journal`): how to finish or undo it, or,
    for a journal mfls does not act on, why."""
    from mfls.disk.journal import pending_warnings

    for warning in pending_warnings(roots):
        say(command, f"warning: {warning}")


def course_root_of(path: str) -> str | None:
    """The root of the course the file at `path` belongs to (the nearest folder above it
    holding the course file), None outside every course or for standard input."""
    import os

    from mfls.workspace.course_root import nearest_course_root

    if path == "-":
        return None
    return nearest_course_root(os.path.dirname(os.path.abspath(path)))
