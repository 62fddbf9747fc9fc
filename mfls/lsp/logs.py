"""Logging for the server: stderr always, and `window/logMessage` once a client is there."""

from __future__ import annotations

import logging
from collections.abc import Callable

from lsprotocol import types as t

LOGGER_NAME = "mfls"


def message_type(level: int) -> t.MessageType:
    if level >= logging.ERROR:
        return t.MessageType.Error
    if level >= logging.WARNING:
        return t.MessageType.Warning
    if level >= logging.INFO:
        return t.MessageType.Info
    return t.MessageType.Log


class ClientLogHandler(logging.Handler):
    """Forwards records to the client through `send(type, text)`, which must be thread-safe."""

    def __init__(self, send: Callable[[t.MessageType, str], None]) -> None:
        super().__init__()
        self._send = send
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self._send(message_type(record.levelno), self.format(record))
        except Exception:
            self.handleError(record)


def apply_levels(level: int, trace: bool) -> None:
    logging.getLogger(LOGGER_NAME).setLevel(level)
    logging.getLogger("pygls").setLevel(level if trace else logging.WARNING)
