"""Keeping texts current: open buffers (didOpen, didChange, didClose) and files on disk
(didChangeWatchedFiles)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from lsprotocol import types as t

from mfls.lsp import from_proto
from mfls.lsp.documents import OpenBuffer, is_markdown
from mfls.lsp.logs import LOGGER_NAME
from mfls.lsp.server import MflsServer
from mfls.text.line_index import LineIndex
from mfls.workspace.uris import canonical_uri

log = logging.getLogger(LOGGER_NAME)


def did_open(ls: MflsServer, params: t.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    if not is_markdown(doc.uri, doc.language_id):
        return
    uri = canonical_uri(doc.uri)
    ls.state.set_buffer(uri, OpenBuffer(doc.uri, doc.version, LineIndex(doc.text)))
    ls.courses.open(uri, doc.text, doc.version)
    ls.settle_heap()
    ls.diagnostics_changed(uri)


def did_change(ls: MflsServer, params: t.DidChangeTextDocumentParams) -> None:
    uri = canonical_uri(params.text_document.uri)
    buffer = ls.state.buffers.get(uri)
    if buffer is None:
        return
    edits, index = from_proto.content_changes(
        buffer.index, ls.caps.encoding, params.content_changes
    )
    buffer = OpenBuffer(buffer.client_uri, params.text_document.version, index)
    ls.state.set_buffer(uri, buffer)
    try:
        ls.courses.change(uri, edits, buffer.version)
    except Exception:
        log.exception("applying an edit to %s failed; reloading the whole buffer", uri)
        ls.courses.open(uri, index.text, buffer.version)
    ls.diagnostics_changed(uri)


def did_close(ls: MflsServer, params: t.DidCloseTextDocumentParams) -> None:
    uri = canonical_uri(params.text_document.uri)
    if ls.state.close_buffer(uri) is None:
        return
    ls.courses.close(uri)
    if not ls.caps.pull_diagnostics and not ls.settings.closed_documents:
        ls.clear_published(uri)
    ls.diagnostics_changed(uri)


async def did_change_watched_files(ls: MflsServer, params: t.DidChangeWatchedFilesParams) -> None:
    changes = from_proto.file_changes(params.changes)
    if not changes:
        return
    ls.courses.expect_changes(changes)

    def job(progress: Callable[[int, int], None]) -> None:
        ls.courses.files_changed(changes)

    await ls.run_indexing("Updating MarkdownFlow courses", job)
