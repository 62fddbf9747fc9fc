"""`OpenBuffers`: the documents the editor has open, held once, here.

Each open document is an `OpenBuffer`, a value: the URI as the client spelled it, the
version, the text's `LineIndex` (updated edit by edit, never rebuilt) and the parsed,
incrementally edited document. A change replaces the buffer and the mapping that holds
it (never updates either), so whoever took `mapping` before (a request's snapshot, the
worker) keeps the buffers of its moment, and reading it needs no lock.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Protocol

from mfls.text.line_index import LineIndex
from mfls.workspace.index import ScannedDocument


class EditableDocument(ScannedDocument, Protocol):
    def edited(
        self, start: int, end: int, new_text: str, version: int | None = None
    ) -> EditableDocument: ...


DocumentFactory = Callable[[str, "int | None"], EditableDocument]


class OpenBuffer:
    """One open document, a value: an edit makes a new one."""

    __slots__ = ("_document", "client_uri", "index", "version")

    def __init__(
        self,
        client_uri: str,
        version: int | None,
        index: LineIndex,
        document: EditableDocument | None = None,
    ) -> None:
        self.client_uri = client_uri  # the URI exactly as the client spelled it
        self.version = version
        self.index = index  # of the current text
        self._document = document  # None only in a buffer made to convert positions

    @property
    def document(self) -> EditableDocument:
        """The parsed document (every buffer the workspace holds has one)."""
        if self._document is None:
            raise ValueError(f"{self.client_uri}: a buffer with no document")
        return self._document

    def __repr__(self) -> str:
        return f"OpenBuffer({self.client_uri!r}, version {self.version})"


class OpenBuffers:
    def __init__(self) -> None:
        self._mapping: Mapping[str, OpenBuffer] = MappingProxyType({})

    @property
    def mapping(self) -> Mapping[str, OpenBuffer]:
        """The open buffers by canonical URI, in the order they were opened."""
        return self._mapping

    def get(self, uri: str) -> OpenBuffer | None:
        return self._mapping.get(uri)

    def __contains__(self, uri: object) -> bool:
        return uri in self._mapping

    def put(self, uri: str, buffer: OpenBuffer) -> None:
        """Open `uri`, or replace its buffer after an edit."""
        self._mapping = MappingProxyType({**self._mapping, uri: buffer})

    def pop(self, uri: str) -> OpenBuffer | None:
        """Forget the buffer of `uri` (None: it was not open)."""
        if uri not in self._mapping:
            return None
        buffers = dict(self._mapping)
        closed = buffers.pop(uri)
        self._mapping = MappingProxyType(buffers)
        return closed
