"""Conversions between file paths and `file:` URIs, so one file has one URI.

A path that is not valid UTF-8 (its undecodable bytes kept as lone surrogates, as
`os.fsdecode` does) is percent-encoded byte for byte, and decodes back to the same path.
"""

from __future__ import annotations

import os
from pathlib import PurePosixPath
from urllib.parse import quote, unquote_to_bytes, urlsplit


def path_to_uri(path: str) -> str:
    posix = PurePosixPath(os.path.abspath(path)).as_posix()
    return "file://" + quote(_encoded(posix), safe="/")


def _encoded(text: str) -> bytes:
    """UTF-8 bytes of a path; undecodable bytes back as they were, other lone surrogates
    (from a client's JSON) as their own UTF-8 forms: never raises."""
    try:
        return text.encode("utf-8", errors="surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", errors="surrogatepass")


def uri_to_path(uri: str) -> str | None:
    """The local path of a `file:` URI, or None for any other scheme."""
    parts = urlsplit(uri)
    if parts.scheme != "file":
        return None
    raw = unquote_to_bytes(_encoded(parts.path)).decode("utf-8", errors="surrogateescape")
    return os.path.normpath(raw)


def canonical_uri(uri: str) -> str:
    """One spelling per file: percent-encoding and `..` segments normalized."""
    path = uri_to_path(uri)
    return uri if path is None else path_to_uri(path)
