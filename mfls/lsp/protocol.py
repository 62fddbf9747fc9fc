"""The protocol class of the server.

- pygls keeps its own copy of every open document and re-splits the whole text into
  lines on each change (tens of milliseconds per keystroke in a 1 MB document). mfls
  keeps the buffers itself (`mfls.lsp.documents`), so that copy is skipped: the
  notifications go straight to the server's handlers.
- pygls drops a request whose params do not fit its type (and shows the user an
  error). Here it is answered with -32602 Invalid Params; such a notification is
  logged and ignored.
- `workspace/executeCommand` is checked before pygls reads it: params not an object, a
  `command` that is not a string or names no command, `arguments` that are not a list
  (pygls split a string into its characters) are answered -32602 with one log line. A
  command whose arguments do not fit returns a `Refusal` marked `malformed`: answered
  -32602 too, and logged as a warning (other refusals at debug level).
- pygls drops requests that arrive after `shutdown`; LSP wants them answered with
  -32600 Invalid Request. pygls initializes again at a second `initialize`, which LSP
  allows once only: it is answered -32600 too, and changes nothing.
- A handler that raises is answered InternalError (-32603) from the `Fault` its route
  returns (`mfls.lsp.faults`), logged once where it was caught, not again by pygls.
- A handler that declines returns a `Refusal` (see `mfls.lsp.routes`); it is answered
  with an error (RequestFailed, or ContentModified when stale) and logged at debug level,
  since it is a normal outcome (prepareRename away from a marker), not a fault. A
  `NotReady` (a pulled diagnostic whose course is not indexed in time, see
  `mfls.lsp.course_gate`) is answered ServerCancelled with `retriggerRequest: true`.
- pygls warns about each cancel notification for a request already answered; here that
  is logged at debug level.
- Frames come from `mfls.lsp.wire` (`receive_body`, `receive_problem`): a body that is
  not JSON is answered -32700, a message that is not JSON-RPC -32600, and neither stops
  the server.
- A result that is a `to_proto.JsonText` (a pull diagnostic report) is sent as the JSON
  text it is, and `send_json_text` sends a whole message so (`publishDiagnostics`):
  cattrs and the JSON encoder would otherwise take longer than computing the
  diagnostics of a large lesson.
- pygls registers a Future for every handler it runs, under a fresh id when the message
  is a notification or a step of a generator handler, and only answering a request
  removes one: a leak of one Future per didOpen/didChange/didClose. Here only a client's
  request is registered (where `$/cancelRequest` can find it), and a request the server
  sent is forgotten once answered, failed or given up on.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import json
import logging
import uuid
from collections.abc import Callable, Generator
from concurrent.futures import Future
from typing import Any

from lsprotocol import types as t
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
)
from pygls.feature_manager import is_thread_function
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import RPCRequest
from pygls.protocol.language_server import lsp_method

from mfls.features.refusal import Refusal
from mfls.lsp.course_gate import NotReady
from mfls.lsp.faults import Fault
from mfls.lsp.logs import LOGGER_NAME
from mfls.lsp.to_proto import JsonText, refusal_error
from mfls.lsp.wire import PARSE_ERROR, Problem, check_message

log = logging.getLogger(LOGGER_NAME)
pygls_log = logging.getLogger("pygls.protocol.json_rpc")  # where pygls logs what it sends


class _Refused:
    """Stands for a message that could not be read and has been dealt with."""

    jsonrpc = "refused"


REFUSED = _Refused()


class MflsProtocol(LanguageServerProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._writing: set[asyncio.Future[Any]] = set()  # writes in flight (async writers)
        self._initialize_seen = False

    def structure_message(self, data: dict[str, Any]) -> Any:
        if (
            isinstance(data, dict)
            and data.get("method") == t.WORKSPACE_EXECUTE_COMMAND
            and "id" in data
        ):
            problem = _command_problem(data.get("params"), self.fm.commands)
            if problem is not None:
                log.warning("%s: %s; answered -32602", t.WORKSPACE_EXECUTE_COMMAND, problem)
                error = JsonRpcInvalidParams(problem)
                self._send_response(data["id"], error=error.to_response_error())
                return REFUSED
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
        if isinstance(message, RPCRequest) and message.method == t.INITIALIZE:
            if self._initialize_seen:
                log.warning("a second initialize request; answered -32600")
                error = JsonRpcInvalidRequest("initialize may only be sent once")
                self._send_response(message.id, error=error.to_response_error())
                return
            self._initialize_seen = True
        super().handle_message(message)

    def _send_handler_result(self, future: Future[Any], *, msg_id: Any) -> None:
        if future.done() and not future.cancelled() and future.exception() is None:
            refusal = future.result()
            if isinstance(refusal, Fault):  # logged where it was caught
                self._request_futures.pop(msg_id, None)
                self._send_response(msg_id, error=refusal.error())
                return
            if isinstance(refusal, NotReady):
                self._request_futures.pop(msg_id, None)
                self._send_response(msg_id, error=refusal.error())
                return
            if isinstance(refusal, Refusal):
                self._request_futures.pop(msg_id, None)
                error = refusal_error(refusal)
                level = logging.WARNING if refusal.malformed else logging.DEBUG
                log.log(level, "request %s refused (%d): %s", msg_id, error.code, error.message)
                self._send_response(msg_id, error=error)
                return
        super()._send_handler_result(future, msg_id=msg_id)

    def _send_response(
        self, msg_id: Any, result: Any | None = None, error: t.ResponseError | None = None
    ) -> None:
        if error is None and isinstance(result, JsonText):
            self._result_types.pop(msg_id, None)
            self.send_json_text(
                f'{{"id": {json.dumps(msg_id)}, "result": {result}, "jsonrpc": "{self.VERSION}"}}'
            )
            return
        super()._send_response(msg_id, result, error)

    def send_json_text(self, body: str) -> None:
        """Send one message already written as JSON text, framed as pygls frames."""
        if self.writer is None:
            log.error("unable to send data, no available transport")
            return
        try:
            if pygls_log.isEnabledFor(logging.INFO):
                pygls_log.info("Sending data: %s", body)
            data = body.encode(self.CHARSET)
            if self._include_headers:
                header = (
                    f"Content-Length: {len(data)}\r\n"
                    f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
                )
                data = header.encode(self.CHARSET) + data
            written = self.writer.write(data)
            if inspect.isawaitable(written):
                task = asyncio.ensure_future(written)
                self._writing.add(task)
                task.add_done_callback(self._writing.discard)
        except BrokenPipeError:
            log.exception("could not send data: the pipe is broken")
            raise
        except Exception as error:
            log.exception("could not send data")
            self._server._report_server_error(error, JsonRpcInternalError)

    def _handle_cancel_notification(self, msg_id: Any) -> None:
        if msg_id not in self._request_futures:
            log.debug("cancel notification for request %s, already answered or unknown", msg_id)
            return
        super()._handle_cancel_notification(msg_id)

    def receive_body(self, body: bytes) -> None:
        """Handle one frame's body, answering what is not a JSON-RPC message."""
        try:
            data = json.loads(body)
        except (ValueError, RecursionError) as error:
            self.receive_problem(Problem(f"unparseable JSON: {error}", True, None, PARSE_ERROR))
            return
        problem = check_message(data)
        if problem is not None:
            self.receive_problem(problem)
            return
        try:
            self.handle_message(self.structure_message(data))
        except Exception:
            log.exception("could not handle a %s message", data.get("method") or "JSON-RPC")

    def receive_problem(self, problem: Problem) -> None:
        """Log a frame or message that could not be read; answer it when it is owed one."""
        if not problem.answer:
            log.warning("%s", problem.reason)
            return
        log.warning("%s; answered %d under id %r", problem.reason, problem.code, problem.msg_id)
        error = {"code": problem.code, "message": problem.reason}
        self._send_data({"jsonrpc": self.VERSION, "id": problem.msg_id, "error": error})

    def _execute_handler(
        self,
        msg_id: Any,
        handler: Callable[..., Any],
        callback: Callable[[Future[Any]], None],
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        if msg_id == self._ctx_msg_id.get():
            # A request of the client: pygls forgets its Future when answering it.
            super()._execute_handler(msg_id, handler, callback, args, kwargs)
            return
        args = args or ()
        kwargs = kwargs or {}
        future: Any
        if inspect.iscoroutinefunction(handler):
            future = asyncio.ensure_future(handler(*args, **kwargs))
            future.add_done_callback(callback)
        elif is_thread_function(handler):
            run = contextvars.copy_context().run  # its log records: the connection's
            future = self._server.thread_pool.submit(run, handler, *args, **kwargs)
            future.add_done_callback(callback)
        else:
            future = Future()
            future.add_done_callback(callback)
            try:
                if inspect.isgeneratorfunction(handler):
                    gen = handler(*args, **kwargs)
                    self._run_generator(None, gen=gen, result_future=future)
                else:
                    future.set_result(handler(*args, **kwargs))
            except Exception as exc:
                future.set_exception(exc)

    def send_request(
        self,
        method: str,
        params: Any | None = None,
        callback: Callable[[Any], None] | None = None,
        msg_id: Any = None,
    ) -> Future[Any]:
        # pygls forgets a request it sent only when the answer comes: one given up on
        # (`ask_client`'s timeout cancels it) is forgotten here.
        msg_id = str(uuid.uuid4()) if msg_id is None else msg_id
        future = super().send_request(method, params, callback, msg_id)
        future.add_done_callback(lambda _done: self._forget(msg_id))
        return future

    def _forget(self, msg_id: Any) -> None:
        self._request_futures.pop(msg_id, None)
        self._result_types.pop(msg_id, None)

    def _handle_response(self, msg_id: Any, result: Any = None, error: Any = None) -> None:
        self._result_types.pop(msg_id, None)  # pygls keeps it when the answer is an error
        super()._handle_response(msg_id, result, error)

    def _run_generator(
        self,
        future: Future[Any] | None,
        *,
        gen: Generator[Any, Any, Any],
        result_future: Future[Any],
    ) -> None:
        if future is not None and future.cancelled():
            # pygls would raise CancelledError inside a done callback (a traceback in the
            # log, and a request never answered): a step cancelled cancels its handler.
            gen.close()
            result_future.cancel()
            return
        super()._run_generator(future, gen=gen, result_future=result_future)

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

    @lsp_method(t.SHUTDOWN)
    def lsp_shutdown(self, *args: Any) -> Generator[Any, Any, None]:
        """pygls's shutdown, cancelling a copy of the pending futures: cancelling one runs
        its callbacks, which forget it (`_forget`), and pygls iterated the live dict."""
        if (user_handler := self.fm.features.get(t.SHUTDOWN)) is not None:
            yield user_handler, args, None
        current = self.msg_id
        for msg_id, future in list(self._request_futures.items()):
            if msg_id != current and not future.done():
                future.cancel()
        self._shutdown = True
        return None


_JSON_TYPES = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}


def _json_type(value: Any) -> str:
    return "null" if value is None else _JSON_TYPES.get(type(value), "a number")


def _command_problem(params: Any, commands: Any) -> str | None:
    """Why the params of a `workspace/executeCommand` request do not fit, or None."""
    if not isinstance(params, dict):
        return f"params must be an object, not {_json_type(params)}"
    name = params.get("command")
    if not isinstance(name, str):
        return f"`command` must be a string, not {_json_type(name)}"
    if name not in commands:
        return f"unknown command {name!r}"
    arguments = params.get("arguments")
    if arguments is not None and not isinstance(arguments, list):
        return f"{name}: `arguments` must be a list, not {_json_type(arguments)}"
    return None
