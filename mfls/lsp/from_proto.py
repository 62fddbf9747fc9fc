"""LSP in: URIs, positions and ranges -> canonical URIs, line indexes and code point offsets.

Every handler that reads a place in a document starts here: `cursor` and `span` find the
text the position is in (an open buffer, else the indexed copy) and convert the position
in the negotiated encoding, clamping like the rest of the server.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lsprotocol import types as t

from mfls.lsp.documents import Texts
from mfls.text.line_index import Encoding, LineIndex
from mfls.workspace.uris import canonical_uri, uri_to_path

FILE_CHANGES = {
    t.FileChangeType.Created: "created",
    t.FileChangeType.Changed: "changed",
    t.FileChangeType.Deleted: "deleted",
}


@dataclass(frozen=True, slots=True)
class Document:
    uri: str  # canonical
    index: LineIndex


@dataclass(frozen=True, slots=True)
class Cursor:
    uri: str  # canonical
    index: LineIndex
    offset: int


@dataclass(frozen=True, slots=True)
class Span:
    uri: str  # canonical
    index: LineIndex
    start: int  # start <= end, whatever order the client sent
    end: int


def document(texts: Texts, uri: str) -> Document | None:
    """The text at `uri` (as the client spells it), or None when mfls has none."""
    canonical = canonical_uri(uri)
    index = texts.index(canonical)
    return None if index is None else Document(canonical, index)


def offset(index: LineIndex, encoding: Encoding, position: t.Position) -> int:
    return index.offset(position.line, position.character, encoding)


def offsets(index: LineIndex, encoding: Encoding, range_: t.Range) -> tuple[int, int]:
    """The range's offsets, in ascending order."""
    start = offset(index, encoding, range_.start)
    end = offset(index, encoding, range_.end)
    return min(start, end), max(start, end)


def cursor(texts: Texts, encoding: Encoding, uri: str, position: t.Position) -> Cursor | None:
    found = document(texts, uri)
    if found is None:
        return None
    return Cursor(found.uri, found.index, offset(found.index, encoding, position))


def span(texts: Texts, encoding: Encoding, uri: str, range_: t.Range | None) -> Span | None:
    """The range's offsets; the whole text when `range_` is None."""
    found = document(texts, uri)
    if found is None:
        return None
    if range_ is None:
        return Span(found.uri, found.index, 0, len(found.index.text))
    return Span(found.uri, found.index, *offsets(found.index, encoding, range_))


def content_changes(
    index: LineIndex,
    encoding: Encoding,
    changes: Iterable[t.TextDocumentContentChangeEvent],
) -> tuple[list[tuple[int, int, str]], LineIndex]:
    """`didChange` events -> `(start, end, new text)` edits in order, each in the text the
    previous ones made, and the index of the final text."""
    edits: list[tuple[int, int, str]] = []
    for change in changes:
        if isinstance(change, t.TextDocumentContentChangePartial):
            start, end = offsets(index, encoding, change.range)
        else:
            start, end = 0, len(index.text)
        edits.append((start, end, change.text))
        index = index.edited(start, end, change.text)
    return edits, index


def file_changes(events: Iterable[t.FileEvent]) -> list[tuple[str, str]]:
    """Watched-file events -> `(path, "created" | "changed" | "deleted")`, local files only."""
    changes = []
    for event in events:
        path = uri_to_path(canonical_uri(event.uri))
        if path is not None:
            changes.append((path, FILE_CHANGES.get(event.type, "changed")))
    return changes


def folder_paths(uris: Iterable[str]) -> list[str]:
    """Workspace folder URIs -> local paths (others dropped)."""
    return [p for p in (uri_to_path(canonical_uri(u)) for u in uris) if p]


def initial_folders(params: t.InitializeParams) -> list[str]:
    """The workspace folders of `initialize`, else its root URI, as local paths."""
    folders: Sequence[str] = [f.uri for f in params.workspace_folders or []]
    if not folders and params.root_uri:
        folders = [params.root_uri]
    return folder_paths(folders)
