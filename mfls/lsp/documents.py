"""Texts the server converts positions in: open buffers first, then the course index.

Every text gets one `LineIndex`, kept while the text is current; an open buffer's index
is updated edit by edit rather than rebuilt. An `OpenBuffer` (held once, by the
workspace: `mfls.workspace.open_buffers`) is a value: an edit replaces it, so a
`Snapshot` (`mfls.lsp.snapshot`) taken before keeps converting in its old text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from mfls.lsp.filetypes import LANGUAGE_IDS
from mfls.text.line_index import LineIndex
from mfls.workspace.config import COURSE_FILE, MARKDOWN_SUFFIXES
from mfls.workspace.course_creator import STRUCTURE
from mfls.workspace.open_buffers import OpenBuffer

__all__ = ["OpenBuffer", "Texts", "is_course_file", "is_markdown"]

CACHED_INDEXES = 256  # line indexes kept for documents that are not open


def is_markdown(uri: str, language_id: str | None = None) -> bool:
    if language_id is not None and language_id in LANGUAGE_IDS:
        return True
    return uri.lower().endswith(MARKDOWN_SUFFIXES)


def is_course_file(uri: str) -> bool:
    """A course's `mfcourse.toml`, or the `structure.json` of an AI-Shifu course folder
    (their diagnostics are the course's, not a document's)."""
    return uri.rsplit("/", 1)[-1] in (COURSE_FILE, STRUCTURE)


class Texts:
    """Open buffers, plus a cache of indexes for texts read from the course index.

    `open` and `cache` may be given: a snapshot's texts are the buffers of that moment
    (a mapping nobody changes) and the server's cache, which any snapshot may share,
    since an index is reused only for the very text it was built from."""

    def __init__(
        self,
        lookup: Callable[[str], str | None],
        open: Mapping[str, OpenBuffer] | None = None,
        cache: dict[str, LineIndex] | None = None,
    ) -> None:
        self._lookup = lookup
        self.open: Mapping[str, OpenBuffer] = {} if open is None else open
        self._cache: dict[str, LineIndex] = {} if cache is None else cache

    def index(self, uri: str) -> LineIndex | None:
        buffer = self.open.get(uri)
        if buffer is not None:
            return buffer.index
        text = self._lookup(uri)
        if text is None:
            self._cache.pop(uri, None)
            return None
        cached = self._cache.pop(uri, None)
        if cached is None or (cached.text is not text and cached.text != text):
            cached = LineIndex(text)
        self._cache[uri] = cached  # most recently used last
        while len(self._cache) > CACHED_INDEXES:
            del self._cache[next(iter(self._cache))]
        return cached

    def client_uri(self, uri: str) -> str:
        buffer = self.open.get(uri)
        return buffer.client_uri if buffer is not None else uri

    def forget(self, uri: str) -> None:
        self._cache.pop(uri, None)
