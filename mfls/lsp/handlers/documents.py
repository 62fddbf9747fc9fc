"""Keeping texts current: open buffers (didOpen, didChange, didClose) and files on disk
(didChangeWatchedFiles). MUTATE handlers: `handler(state, plumbing, params)`."""

from __future__ import annotations

import logging
from collections.abc import Callable

from lsprotocol import types as t

from mfls.lsp import from_proto
from mfls.lsp.documents import is_markdown
from mfls.lsp.logs import LOGGER_NAME
from mfls.lsp.plumbing import Plumbing
from mfls.lsp.state import ServerState
from mfls.workspace.uris import canonical_uri

log = logging.getLogger(LOGGER_NAME)


def did_open(state: ServerState, plumbing: Plumbing, params: t.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    if not is_markdown(doc.uri, doc.language_id):
        return
    uri = canonical_uri(doc.uri)
    state.workspace.open(uri, doc.text, doc.version, doc.uri)
    plumbing.settle_heap()
    plumbing.diagnostics_changed(uri)


def did_change(
    state: ServerState, plumbing: Plumbing, params: t.DidChangeTextDocumentParams
) -> None:
    uri = canonical_uri(params.text_document.uri)
    buffer = state.buffers.get(uri)
    if buffer is None:
        return
    edits, index = from_proto.content_changes(
        buffer.index, state.caps.encoding, params.content_changes
    )
    version = params.text_document.version
    try:
        state.workspace.change(uri, edits, version, index)
    except Exception:
        log.exception("applying an edit to %s failed; reloading the whole buffer", uri)
        state.workspace.open(uri, index.text, version, buffer.client_uri, index)
    plumbing.diagnostics_changed(uri)


def did_close(state: ServerState, plumbing: Plumbing, params: t.DidCloseTextDocumentParams) -> None:
    """The buffer is forgotten at once; a course member's disk copy is read on the worker
    and takes its place (`Workspace.release`)."""
    uri = canonical_uri(params.text_document.uri)
    if not state.workspace.is_open(uri):
        return
    state.forget_index(uri)
    reread = state.workspace.release(uri)
    if not state.caps.pull_diagnostics and not state.settings.closed_documents:
        plumbing.clear_published(uri)
    if reread is None:
        plumbing.diagnostics_changed(uri)
    else:
        plumbing.in_background(reread, uri)


async def did_change_watched_files(
    state: ServerState, plumbing: Plumbing, params: t.DidChangeWatchedFilesParams
) -> None:
    changes = from_proto.file_changes(params.changes)
    if not changes:
        return
    workspace = state.workspace
    workspace.expect_changes(changes)

    def job(progress: Callable[[int, int], None]) -> None:
        workspace.files_changed(changes)

    await plumbing.run_indexing("Updating MarkdownFlow courses", job)
