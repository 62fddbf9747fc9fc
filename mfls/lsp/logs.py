"""Logging for the server: stderr always, and `window/logMessage` once a client is there.

Over the socket (`mfls serve --ws`) one process serves several clients: each record is
made on behalf of the connection in `CONNECTION` where it is made (set in the
connection's task; copied into the worker threads by `ContextThreads`), and a client's
handler passes only its own connection's records. A record of no connection (a refused
handshake) goes to stderr only.
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from lsprotocol import types as t

LOGGER_NAME = "mfls"

CONNECTION: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "mfls_connection", default=None
)
"""The socket connection on whose behalf the code runs: None outside `mfls serve --ws`."""


def message_type(level: int) -> t.MessageType:
    if level >= logging.ERROR:
        return t.MessageType.Error
    if level >= logging.WARNING:
        return t.MessageType.Warning
    if level >= logging.INFO:
        return t.MessageType.Info
    return t.MessageType.Log


class ClientLogHandler(logging.Handler):
    """Forwards records to the client through `send(type, text)`, which must be thread-safe;
    given a `connection`, only the records made on its behalf (`CONNECTION`)."""

    def __init__(
        self, send: Callable[[t.MessageType, str], None], connection: int | None = None
    ) -> None:
        super().__init__()
        self._send = send
        self.connection = connection
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def filter(self, record: logging.LogRecord) -> bool:
        if self.connection is not None and CONNECTION.get() != self.connection:
            return False
        return bool(super().filter(record))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self._send(message_type(record.levelno), self.format(record))
        except Exception:
            self.handleError(record)


def apply_levels(level: int, trace: bool) -> None:
    logging.getLogger(LOGGER_NAME).setLevel(level)
    logging.getLogger("pygls").setLevel(level if trace else logging.WARNING)


class ContextThreads(ThreadPoolExecutor):
    """A thread pool whose work runs in a copy of the context it was submitted from: a
    record it makes is on behalf of the submitter's connection (`CONNECTION`)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return super().submit(contextvars.copy_context().run, fn, *args, **kwargs)


def in_this_context(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn`, to be called later (from any thread) in a copy of the context current now."""
    context = contextvars.copy_context()
    return lambda *args, **kwargs: context.copy().run(fn, *args, **kwargs)
