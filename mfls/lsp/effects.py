"""What a DISK handler asks of the server besides its answer (`Outcome`): the handler runs
on the worker and changes nothing; the dispatcher applies these on the event loop
(`MflsServer.apply`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lsprotocol import types as t

from mfls.features import rename_record as rr


@dataclass(frozen=True)
class WatchRename:
    """Keep the record of a rename until its documents are seen holding their new text.
    `offered`: a quick fix's rename, offered again at each request (one record)."""

    pending: rr.PendingRename
    offered: bool = False


@dataclass(frozen=True)
class MessageAfterAnswer:
    """A `window/showMessage` sent once the answer is."""

    kind: t.MessageType
    text: str


Effect = WatchRename | MessageAfterAnswer


@dataclass(frozen=True)
class Outcome:
    answer: Any
    effects: tuple[Effect, ...] = ()
