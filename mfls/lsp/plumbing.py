"""`Plumbing`: what a MUTATE handler (`mfls.lsp.routes`) asks of the server besides its
`ServerState`: messages and requests to the client, indexing on the worker, publishing.

The handlers import this protocol, never `mfls.lsp.server`; `MflsServer` answers it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from lsprotocol import types as t

from mfls.lsp.capabilities import Capabilities


class Plumbing(Protocol):
    def started(self) -> None:
        """The event loop runs (`initialize`): keep it, and send log records to the client."""
        ...

    def offer(self, caps: Capabilities) -> None:
        """Register the routes this client's capabilities call for."""
        ...

    async def ask_configuration(self, params: t.ConfigurationParams) -> list[Any]:
        """`workspace/configuration`; raises when the client fails or does not answer in
        time."""
        ...

    async def update_watchers(self) -> None:
        """(Re-)register file watching for the globs the courses now need."""
        ...

    def expect_courses(self) -> None:
        """Hold what depends on a course until the folders are indexed (the course gate)."""
        ...

    async def index_folders(self, folders: list[str]) -> None:
        """Index `folders` on the worker, the open documents' courses first."""
        ...

    def in_background(self, work: Callable[[], None], uri: str) -> None:
        """`work()` on the worker, behind the indexing queued before it (inline when the
        server has no worker), then `diagnostics_changed(uri)` on the loop."""
        ...

    async def run_indexing(
        self, title: str, job: Callable[[Callable[[int, int], None]], None]
    ) -> None:
        """Run `job(progress)` on the worker, then publish what changed."""
        ...

    def diagnostics_changed(self, uri: str | None = None) -> None:
        """Something changed in `uri` (anywhere when None): publish or ask for a pull."""
        ...

    def clear_published(self, uri: str) -> None:
        """Send empty diagnostics for `uri` if any were published."""
        ...

    def settle_heap(self) -> None:
        """Take what is alive now out of the garbage collector's sight."""
        ...

    def stop_worker(self) -> None: ...
