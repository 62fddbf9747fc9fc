"""The course gate: nothing that depends on a course is answered before it is indexed.

What mfls says about a document depends on its course: the host (the keys it provides or
reserves), the runtime target, the other lessons (where a key is asked). While the
workspace folders are being indexed, a document the editor opens sits in a course
guessed from that document alone, and an answer computed there would be wrong (advice
for the wrong host, keys "never asked" that another lesson asks).

The gate holds from `initialize` (when there are folders) and while the folders are
indexed (`begin`, `end`); meanwhile a document's course is ready once the worker has
indexed it (`courses_known`: the open documents' courses come first, see
`Workspace.index_all`). A route marked as depending on the course (`Route.course` in
`mfls.lsp.routes`) is answered at once when its document's course is ready; otherwise it
waits for it, at most `WAIT_BOUND` seconds, and past that gets its late answer: for pulled
diagnostics ServerCancelled with `retriggerRequest: true` (`NotReady`), so the client asks
again; the empty answer of the route otherwise. Push clients are sent nothing for a
document before its course is ready (`MflsServer.publish`).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterable
from typing import Final

from lsprotocol import types as t

from mfls.workspace.index import WorkspaceSnapshot
from mfls.workspace.uris import canonical_uri

WAIT_BOUND: Final = 5.0
"""Seconds a request waits for its document's course before its late answer."""

INDEX_DELAY_ENV: Final = "MFLS_TEST_INDEX_DELAY"
"""For tests only: seconds the worker sleeps before indexing the workspace folders."""

SERVER_CANCELLED: Final = int(t.LSPErrorCodes.ServerCancelled)


class NotReady:
    """The late answer of a pulled diagnostic request: ServerCancelled, ask again."""

    def __init__(self, message: str) -> None:
        self.message = message

    def error(self) -> t.ResponseError:
        return t.ResponseError(
            code=SERVER_CANCELLED, message=self.message, data={"retriggerRequest": True}
        )


def not_ready(params: object) -> NotReady:
    return NotReady("the document's course is still being indexed: ask again")


def index_delay() -> float:
    """The test hook `MFLS_TEST_INDEX_DELAY` (0 when unset or not a number)."""
    try:
        return max(0.0, float(os.environ.get(INDEX_DELAY_ENV) or 0))
    except ValueError:
        return 0.0


class CourseGate:
    """Whether a document's course is indexed, and a way to wait until it is. Used on the
    event loop only."""

    def __init__(self) -> None:
        self._expected = False  # `initialize` saw folders; their indexing has not begun
        self._indexing = 0  # indexings of the folders under way
        self._known: frozenset[str] = frozenset()  # course roots indexed
        self._changed: asyncio.Event | None = None

    @property
    def holding(self) -> bool:
        return self._expected or self._indexing > 0

    def expect(self) -> None:
        """An indexing of the folders is coming (`initialize` with folders)."""
        self._expected = True

    def begin(self) -> None:
        self._expected = False
        self._indexing += 1

    def courses_known(self, roots: Iterable[str]) -> None:
        """The courses at `roots` are indexed, while the rest of the workspace is not."""
        self._known |= frozenset(roots)
        self._wake()

    def end(self, snapshot: WorkspaceSnapshot) -> None:
        """An indexing of the folders ended (done or failed): `snapshot` is what is known."""
        self._indexing = max(0, self._indexing - 1)
        roots = (course.root for course in snapshot.courses.values())
        self._known = frozenset(root for root in roots if root is not None)
        self._wake()

    def ready(self, snapshot: WorkspaceSnapshot, uri: str | None) -> bool:
        """True when the course of `uri` (None: the whole workspace) is indexed."""
        if not self.holding:
            return True
        if uri is None:
            return False
        course = snapshot.course_for(canonical_uri(uri))
        return course is not None and course.root in self._known

    async def wait(self, is_ready: Callable[[], bool], bound: float = WAIT_BOUND) -> bool:
        """Wait until `is_ready()`, at most `bound` seconds; False when it never was."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + bound
        while not is_ready():
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            if self._changed is None:
                self._changed = asyncio.Event()
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except TimeoutError:
                return is_ready()
        return True

    def _wake(self) -> None:
        if self._changed is not None:
            self._changed.set()
            self._changed = None
