"""Every disk access of the command line: what a given path is, the documents under a
folder, the text of a file or of standard input. No other module of `mfls.cli` reads
the file system."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Literal

from mfls.workspace.config import MARKDOWN_SUFFIXES
from mfls.workspace.files import walk


@dataclass(frozen=True, slots=True)
class Unusable:
    """A path the command line cannot use, and why (the reason a message shows)."""

    reason: str


def classify(path: str) -> Literal["folder", "file"] | Unusable:
    """Whether `path` (absolute) is a readable folder, a file, or unusable (and why)."""
    if os.path.isdir(path):
        if not os.access(path, os.R_OK | os.X_OK):
            return Unusable("permission denied")
        return "folder"
    if os.path.isfile(path):
        return "file"
    return Unusable("no such file or folder" if not os.path.lexists(path) else "not a file")


def markdown_files(folder: str) -> list[str]:
    """The MarkdownFlow documents under `folder`, walked as the workspace walks it."""
    return [p for p in walk(folder).files if p.lower().endswith(MARKDOWN_SUFFIXES)]


def decode_source(data: bytes) -> str:
    """UTF-8 as given: invalid bytes become U+FFFD, a BOM stays text, line ends stay."""
    return data.decode("utf-8", errors="replace")


def read_source(path: str) -> str | Unusable:
    """The text of the file at `path` (see `decode_source`), or why it cannot be read.

    `-` is standard input.
    """
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(path, "rb") as handle:
                data = handle.read()
    except OSError as error:
        return Unusable(str(error.strerror or error))
    return decode_source(data)
