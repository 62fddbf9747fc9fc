"""The protocol class of the server.

- pygls keeps its own copy of every open document and re-splits the whole text into
  lines on each change (tens of milliseconds per keystroke in a 1 MB document). mfls
  keeps the buffers itself (`mfls.lsp.documents`), so that copy is skipped: the
  notifications go straight to the server's handlers.
- pygls drops a request whose params do not fit its type (and shows the user an
  error). Here it is answered with -32602 Invalid Params; such a notification is
  logged and ignored.
- pygls drops requests that arrive after `shutdown`; LSP wants them answered with
  -32600 Invalid Request.
- A handler that declines returns a `Refusal` (see `mfls.lsp.routes`); it is answered
  with an error (RequestFailed, or ContentModified when stale) and logged at debug level,
  since it is a normal outcome (prepareRename away from a marker), not a fault.
- pygls warns about each cancel notification for a request already answered; here that
  is logged at debug level.
"""

from __future__ import annotations

import logging
from collections.abc import Generator
from concurrent.futures import Future
from typing import Any

from lsprotocol import types as t
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams, JsonRpcInvalidRequest
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import RPCRequest
from pygls.protocol.language_server import lsp_method

from mfls.features.refusal import Refusal
from mfls.lsp.logs import LOGGER_NAME
from mfls.lsp.to_proto import refusal_error

log = logging.getLogger(LOGGER_NAME)


class _Refused:
    """Stands for a message that could not be read and has been dealt with."""

    jsonrpc = "refused"


REFUSED = _Refused()


class MflsProtocol(LanguageServerProtocol):
    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException:
            method = data.get("method") if isinstance(data, dict) else None
            if isinstance(data, dict) and "id" in data and method is not None:
                error = JsonRpcInvalidParams(f"invalid params for {method}")
                try:
                    self._send_response(data["id"], error=error.to_response_error())
                except Exception:
                    log.warning("could not answer a malformed %s request", method)
            else:
                log.warning("ignored a malformed %s message", method or "JSON-RPC")
            return REFUSED

    def handle_message(self, message: Any) -> None:
        if message is REFUSED:
            return
        if self._shutdown and isinstance(message, RPCRequest) and message.method != t.EXIT:
            error = JsonRpcInvalidRequest(f"{message.method}: the server is shutting down")
            self._send_response(message.id, error=error.to_response_error())
            return
        super().handle_message(message)

    def _send_handler_result(self, future: Future[Any], *, msg_id: Any) -> None:
        if future.done() and not future.cancelled() and future.exception() is None:
            refusal = future.result()
            if isinstance(refusal, Refusal):
                self._request_futures.pop(msg_id, None)
                error = refusal_error(refusal)
                log.debug("request %s refused (%d): %s", msg_id, error.code, error.message)
                self._send_response(msg_id, error=error)
                return
        super()._send_handler_result(future, msg_id=msg_id)

    def _handle_cancel_notification(self, msg_id: Any) -> None:
        if msg_id not in self._request_futures:
            log.debug("cancel notification for request %s, already answered or unknown", msg_id)
            return
        super()._handle_cancel_notification(msg_id)

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
