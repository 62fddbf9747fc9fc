"""Conversions between file paths and `file:` URIs, so one file has one URI."""

from __future__ import annotations

import os
from pathlib import PurePosixPath
from urllib.parse import quote, unquote, urlsplit


def path_to_uri(path: str) -> str:
    return "file://" + quote(PurePosixPath(os.path.abspath(path)).as_posix(), safe="/")


def uri_to_path(uri: str) -> str | None:
    """The local path of a `file:` URI, or None for any other scheme."""
    parts = urlsplit(uri)
    if parts.scheme != "file":
        return None
    return os.path.normpath(unquote(parts.path))


def canonical_uri(uri: str) -> str:
    """One spelling per file: percent-encoding and `..` segments normalized."""
    path = uri_to_path(uri)
    return uri if path is None else path_to_uri(path)
