"""The one failure policy of the front end: a handler that raises.

A request whose handler raises (a bug, not a `Refusal`) is answered InternalError
(-32603), as rust-analyzer's and ruff's dispatchers do, and the failure is logged once,
with its traceback, where it was caught (`failed`); the client's error answer says which
method failed. A notification that raises is logged the same way and answers nothing.
A handler that declines returns a `Refusal` instead (`mfls.features.refusal`), and a
route whose course is not indexed in time gets its late answer (`mfls.lsp.course_gate`):
neither is a fault.
"""

from __future__ import annotations

import logging

from lsprotocol import types as t

from mfls.lsp.logs import LOGGER_NAME

log = logging.getLogger(LOGGER_NAME)


class Fault:
    """The answer to a request whose handler raised; the protocol sends `error()`."""

    __slots__ = ("method", "reason")

    def __init__(self, method: str, reason: str) -> None:
        self.method = method
        self.reason = reason

    def error(self) -> t.ResponseError:
        return t.ResponseError(
            code=t.ErrorCodes.InternalError,
            message=f"{self.method} failed: {self.reason} (the server's log has the details)",
        )


def is_notification(method: str) -> bool:
    """Whether LSP defines `method` as a notification (a command is a request)."""
    types = t.METHOD_TO_TYPES.get(method)
    return types is not None and types[1] is None


def failed(method: str, error: BaseException, notification: bool = False) -> Fault | None:
    """Log the failure of `method`'s handler once, with its traceback; its answer: a
    `Fault` for a request, nothing for a notification. Called inside the `except`."""
    log.exception("%s failed", method)
    return None if notification else Fault(method, f"{type(error).__name__}: {error}")
