"""The protocol class of the server.

pygls keeps its own copy of every open document and re-splits the whole text into
lines on each change (tens of milliseconds per keystroke in a 1 MB document). mfls
keeps the buffers itself (`mfls.lsp.documents`), so that copy is skipped: the
notifications go straight to the server's handlers.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from lsprotocol import types as t
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method


class MflsProtocol(LanguageServerProtocol):
    def _user(self, method: str, params: Any) -> Generator[Any, Any, None]:
        handler = self.fm.features.get(method)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(t.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(
        self, params: t.DidOpenTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield from self._user(t.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(t.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: t.DidChangeTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield from self._user(t.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(t.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(
        self, params: t.DidCloseTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield from self._user(t.TEXT_DOCUMENT_DID_CLOSE, params)
