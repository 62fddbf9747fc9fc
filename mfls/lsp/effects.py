"""What a DISK handler asks of the server besides its answer (`Outcome`): the handler runs
on the worker and changes nothing; the dispatcher applies these on the event loop
(`MflsServer.applied`): a rename to watch until applied, a message after the answer, the
closed documents an edit basis read again (`DiskCopies`, for the live index)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lsprotocol import types as t

from mfls.features import rename_record as rr
from mfls.workspace.edit_basis import DiskCopies

__all__ = ["DiskCopies", "Effect", "MessageAfterAnswer", "Outcome", "WatchRename", "with_copies"]


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


Effect = WatchRename | MessageAfterAnswer | DiskCopies


@dataclass(frozen=True)
class Outcome:
    answer: Any
    effects: tuple[Effect, ...] = ()


def with_copies(answer: Any, copies: DiskCopies, *effects: Effect) -> Outcome:
    """`answer` with `effects`, and the documents an edit basis read again when it read
    any that changed."""
    return Outcome(answer, (copies, *effects) if copies.documents else effects)
