"""LSP positions, ranges and events -> canonical URIs and code point offsets."""

from __future__ import annotations

from lsprotocol import types as t

from mfls.lsp import from_proto
from mfls.lsp.documents import OpenBuffer, Texts
from mfls.text.line_index import Encoding, LineIndex

TEXT = "😀 a\r\nb {{ x }}\n"
URI = "file:///course/a.md"


def texts() -> Texts:
    found = Texts(lambda uri: "indexed\n" if uri == "file:///course/b.md" else None)
    found.open[URI] = OpenBuffer("file:///course/%61.md", 1, LineIndex(TEXT))
    return found


def at(line: int, character: int) -> t.Position:
    return t.Position(line=line, character=character)


def test_cursor_converts_in_the_negotiated_encoding() -> None:
    for encoding, character in ((Encoding.UTF16, 3), (Encoding.UTF8, 5), (Encoding.UTF32, 2)):
        cursor = from_proto.cursor(texts(), encoding, URI, at(0, character))
        assert cursor is not None
        assert (cursor.uri, cursor.offset) == (URI, 2)


def test_cursor_canonicalizes_the_uri_and_reads_indexed_texts() -> None:
    cursor = from_proto.cursor(texts(), Encoding.UTF16, "file:///course/%62.md", at(0, 3))
    assert cursor is not None
    assert (cursor.uri, cursor.index.text, cursor.offset) == ("file:///course/b.md", "indexed\n", 3)
    assert from_proto.cursor(texts(), Encoding.UTF16, "file:///elsewhere.md", at(0, 0)) is None


def test_span_orders_and_clamps_and_covers_the_whole_text_without_a_range() -> None:
    reversed_range = t.Range(start=at(1, 99), end=at(0, 0))
    span = from_proto.span(texts(), Encoding.UTF16, URI, reversed_range)
    assert span is not None
    assert (span.start, span.end) == (0, TEXT.index("\n", 6))
    whole = from_proto.span(texts(), Encoding.UTF16, URI, None)
    assert whole is not None and (whole.start, whole.end) == (0, len(TEXT))


def test_content_changes_apply_in_order() -> None:
    index = LineIndex(TEXT)
    changes: list[t.TextDocumentContentChangeEvent] = [
        t.TextDocumentContentChangePartial(range=t.Range(start=at(1, 5), end=at(1, 6)), text="y"),
        t.TextDocumentContentChangePartial(range=t.Range(start=at(0, 0), end=at(0, 2)), text=""),
    ]
    edits, after = from_proto.content_changes(index, Encoding.UTF16, changes)
    assert edits == [(10, 11, "y"), (0, 1, "")]
    assert after.text == " a\r\nb {{ y }}\n"
    whole = [t.TextDocumentContentChangeWholeDocument(text="new")]
    edits, after = from_proto.content_changes(after, Encoding.UTF16, whole)
    assert (edits, after.text) == ([(0, len(" a\r\nb {{ y }}\n"), "new")], "new")


def test_file_changes_keep_local_files_only() -> None:
    events = [
        t.FileEvent(uri="file:///c/a.md", type=t.FileChangeType.Created),
        t.FileEvent(uri="untitled:Untitled-1", type=t.FileChangeType.Changed),
        t.FileEvent(uri="file:///c/b.md", type=t.FileChangeType.Deleted),
    ]
    assert from_proto.file_changes(events) == [("/c/a.md", "created"), ("/c/b.md", "deleted")]


def test_initial_folders_fall_back_to_the_root_uri() -> None:
    params = t.InitializeParams(capabilities=t.ClientCapabilities(), root_uri="file:///root")
    assert from_proto.initial_folders(params) == ["/root"]
    params.workspace_folders = [t.WorkspaceFolder(uri="file:///w", name="w")]
    assert from_proto.initial_folders(params) == ["/w"]
