"""Publishing diagnostics to a push client, in debounced rounds.

A change (`changed(uri)`, or `changed(None)` after re-indexing: every course changed)
starts a round once the changes pause (`Source.delay()` seconds). A round goes through
its stages, one document per turn of the clock, so that a keystroke arriving meanwhile
is handled first (and starts the next round, which takes over the work this one had
left):

- `Stage.OPEN`: the open documents, the edited ones first;
- `Stage.COURSE_FILES`: the course files that have problems or had some published;
- `Stage.CLOSED`: the closed documents of the courses that changed (when the source
  gives any: the setting `diagnostics.closedDocuments`);
- then what was published for closed documents no longer kept is cleared (`Stage.DONE`).

A list is sent only when it differs from the last one sent for the document (opening or
closing sends again). A client that checks versions (`Source.checks_versions`) drops a
list sent for a version older than its text: for it, a list is sent again whenever the
version moved, or it would keep the list of an older text when a change it had passed
altered the list and the later ones left it as it was. The clock (`call_later`, `call_soon`: an
asyncio loop does) and the sending are injected, so the rounds run without a client.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from mfls.lsp.documents import is_course_file
from mfls.lsp.logs import LOGGER_NAME

log = logging.getLogger(LOGGER_NAME)


class Stage(enum.IntEnum):
    OPEN = 0
    COURSE_FILES = 1
    CLOSED = 2
    DONE = 3


class Handle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """What the publisher needs of an event loop."""

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> Handle: ...

    def call_soon(self, callback: Callable[..., Any], *args: Any) -> Any: ...


class Source(Protocol):
    """What the publisher asks of the server."""

    def delay(self) -> float:
        """Seconds of quiet before a round begins."""
        ...

    def open_documents(self) -> Iterable[str]:
        """The open documents, in the order they were opened."""
        ...

    def version(self, uri: str) -> int | None:
        """The version of an open document; None when it is closed."""
        ...

    def ready(self, uri: str) -> bool:
        """Whether the course of `uri` is indexed (nothing is sent before)."""
        ...

    def diagnostics(self, uri: str) -> list[str]:
        """The diagnostics of `uri`, as JSON texts."""
        ...

    def course_files(self) -> Iterable[tuple[str, bool]]:
        """Each course file: (URI, whether its course has problems)."""
        ...

    def closed_documents(self, everything: bool, edited: Sequence[str]) -> Iterable[str]:
        """The closed documents to publish after a change of `edited` (of every course
        when `everything`); none unless closed documents are reported."""
        ...

    def keeps_closed(self, uri: str) -> bool:
        """Whether what was published for the closed document `uri` stays."""
        ...

    def checks_versions(self) -> bool:
        """Whether the client drops diagnostics of a version older than its text."""
        ...


Seen = tuple[bool, int | None]
"""Whether the document was open when its list was sent, and its version if that counts."""

Send = Callable[[str, list[str], int | None], None]
"""Sends the diagnostics (JSON texts) of a document, with its version when open."""


class Publisher:
    def __init__(self, source: Source, clock: Clock, send: Send) -> None:
        self.source = source
        self.clock = clock
        self.send = send
        self.published: dict[str, tuple[list[str], Seen]] = {}  # JSON texts, _seen()
        self._pending: Handle | None = None  # the timer of the next round
        self._round = 0  # rounds begun (or scheduled): a step of an older one stops
        self._unfinished: tuple[bool, list[str]] | None = None  # the round under way's work
        self._edited: dict[str, None] = {}  # documents edited since the last round began
        self._everything = False  # re-indexed since the last round began

    def changed(self, uri: str | None) -> None:
        """`uri` changed (every course when None): a round after the changes pause."""
        if uri is None:
            self._everything = True
        else:
            self._edited[uri] = None
        if self._pending is not None:
            self._pending.cancel()
        self._round += 1  # a round under way stops: the next one takes over its work
        self._pending = self.clock.call_later(self.source.delay(), self._begin)

    def _begin(self) -> None:
        self._pending = None
        self._round += 1
        edited, self._edited = list(self._edited), {}
        everything, self._everything = self._everything, False
        open_now = list(self.source.open_documents())
        first = [uri for uri in edited if uri in open_now]
        if self._unfinished is not None:  # the round this one stops had work left
            everything = everything or self._unfinished[0]
            edited += [uri for uri in self._unfinished[1] if uri not in edited]
        self._unfinished = (everything, edited)
        queue = [(uri, False) for uri in first + [u for u in open_now if u not in first]]
        self._step(self._round, queue, Stage.OPEN)

    def _step(self, round_: int, queue: list[tuple[str, bool]], stage: Stage) -> None:
        """Publish the first of `queue`, or move on to the next stage."""
        if round_ != self._round:
            return
        if queue:
            uri, skip_empty = queue[0]
            self.publish(uri, skip_empty)
            rest = queue[1:]
        elif stage == Stage.OPEN:
            rest, stage = [(uri, False) for uri in self._course_files()], Stage.COURSE_FILES
        elif stage == Stage.COURSE_FILES:
            rest, stage = [(uri, True) for uri in self._closed_documents()], Stage.CLOSED
        else:
            self._clear_gone()
            self._unfinished = None
            return
        self.clock.call_soon(self._step, round_, rest, stage)

    def _course_files(self) -> list[str]:
        return [
            uri for uri, problems in self.source.course_files() if problems or uri in self.published
        ]

    def _closed_documents(self) -> list[str]:
        if self._unfinished is None:
            return []
        everything, edited = self._unfinished
        return [
            uri
            for uri in self.source.closed_documents(everything, edited)
            if self.source.version(uri) is None and not is_course_file(uri)
        ]

    def _clear_gone(self) -> None:
        for uri in list(self.published):
            if self.source.version(uri) is not None or is_course_file(uri):
                continue
            if not self.source.keeps_closed(uri):
                self.clear(uri)

    def publish(self, uri: str, skip_empty: bool = False) -> None:
        """Send the diagnostics of `uri` unless they equal the last ones sent (`skip_empty`:
        or they are empty and none were sent). Nothing before the course of `uri` is
        indexed (`mfls.lsp.course_gate`)."""
        if not self.source.ready(uri):
            return
        try:
            items = self.source.diagnostics(uri)
        except Exception:
            log.exception("diagnostics failed for %s", uri)
            return
        version = self.source.version(uri)
        sent = (items, self._seen(version))
        if self.published.get(uri, ([], (False, None)) if skip_empty else None) == sent:
            return
        self.published[uri] = sent
        self.send(uri, items, version)

    def _seen(self, version: int | None) -> Seen:
        """What of the version a list is sent again for: whether the document is open,
        and for a client that checks versions, the version itself."""
        return version is not None, version if self.source.checks_versions() else None

    def clear(self, uri: str) -> None:
        """Forget what was published for `uri`, sending an empty list if it was not."""
        sent = self.published.pop(uri, None)
        if sent is not None and sent[0]:
            self.send(uri, [], None)
