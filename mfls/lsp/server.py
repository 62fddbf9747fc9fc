"""The language server: its state and the owners of what lives between requests.

No MarkdownFlow logic lives here, and no request handler: those are module-level
functions in `mfls.lsp.handlers`, registered from the table in `mfls.lsp.routes`. The
state handlers see or change is `self.state` (`mfls.lsp.state.ServerState`). The server
answers `Plumbing` (`mfls.lsp.plumbing`) for the MUTATE handlers, and holds one owner per
concern:

- `worker` (`mfls.lsp.worker.Worker`): the background thread (none `inline`, in the
  synchronous mode of `mfls.lsp.sync`) and the way back to the loop;
- `gate` (`mfls.lsp.course_gate.CourseGate`): whether a document's course is indexed;
- `publisher` (`mfls.lsp.publisher.Publisher`, asking `mfls.lsp.publish_source`): pushed
  diagnostics;
- `watchers` (`mfls.lsp.watchers`): the client's file watching;
- `notices` (`mfls.lsp.notices`): course problems and pending rename journals shown once;
- `refreshes` (`mfls.lsp.refreshes`): lens, hint and pulled-diagnostic refreshes;
- `files` (`mfls.lsp.files`): what DISK handlers read; renames seen applied are recorded
  by `mfls.lsp.rename_journals`, indexing progress reported by `mfls.lsp.progress`.

The course workspace serializes its own updates and swaps immutable snapshots, so
requests keep being answered while the worker reads files.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable
from typing import Any

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer

from mfls import __version__
from mfls.disk import REAL_DISK, Disk
from mfls.lsp import course_gate, rename_journals, to_proto
from mfls.lsp.capabilities import Capabilities
from mfls.lsp.course_gate import CourseGate
from mfls.lsp.diagnostic_memo import DiagnosticMemo
from mfls.lsp.effects import DiskCopies, MessageAfterAnswer, Outcome, WatchRename
from mfls.lsp.files import DiskFiles
from mfls.lsp.logs import LOGGER_NAME, ClientLogHandler
from mfls.lsp.notices import Notices, pending_journals
from mfls.lsp.progress import CLIENT_TIMEOUT, IndexingProgress
from mfls.lsp.protocol import MflsProtocol
from mfls.lsp.publish_source import PublishSource
from mfls.lsp.publisher import Publisher
from mfls.lsp.refreshes import Refreshes
from mfls.lsp.settings import Settings
from mfls.lsp.snapshot import Snapshot
from mfls.lsp.state import ServerState
from mfls.lsp.watchers import Watchers
from mfls.lsp.worker import Worker
from mfls.workspace.parallel import default_jobs
from mfls.workspace.workspace import Workspace

log = logging.getLogger(LOGGER_NAME)


class MflsServer(LanguageServer):
    protocol: MflsProtocol

    def __init__(self, inline: bool = False, disk: Disk | None = None) -> None:
        """`inline`: no thread nor process (`mfls.lsp.sync`); `disk`: the file tree the
        workspace reads, the real file system unless another is given."""
        wire = to_proto.wire_converter()
        super().__init__(
            name="mfls",
            version=__version__,
            protocol_cls=MflsProtocol,
            converter_factory=lambda: wire,
        )
        workspace = Workspace(
            jobs=1 if inline else default_jobs(), disk=REAL_DISK if disk is None else disk
        )
        self.files = DiskFiles(workspace)
        """What DISK handlers read of the file system (`mfls.lsp.files`)."""
        self.state = ServerState(
            workspace, DiagnosticMemo(), json_ready=to_proto.sends_json_ready(wire)
        )
        """The only mutable state of the front end (`mfls.lsp.state`)."""
        self.gate = CourseGate()
        """Whether a document's course is indexed yet (`mfls.lsp.course_gate`)."""
        self.offer: Callable[[Capabilities], None] = lambda caps: None
        """Registers the routes that depend on the client (set by `routes.create_server`)."""
        self.worker = Worker(inline)
        """Where indexing and DISK handlers run (`mfls.lsp.worker`)."""
        self.publisher = Publisher(
            PublishSource(lambda: self.state, self.gate), self.worker, self._send_diagnostics
        )
        """Pushes diagnostics to a client that does not pull them."""
        self.watchers = Watchers(
            self.ask_client,
            self.client_register_capability_async,
            self.client_unregister_capability_async,
        )
        self.notices = Notices(self.show_message)
        self.refreshes = Refreshes(
            lambda: self.state,
            self.worker,
            lambda method, params: self.protocol.send_request(method, params),
        )
        self.connection: int | None = None
        """The socket connection served (`mfls serve --ws`): its client is sent the log
        records of that connection only."""
        self.log_handler: ClientLogHandler | None = None

    @property
    def courses(self) -> Workspace:
        return self.state.workspace

    @property
    def settings(self) -> Settings:
        return self.state.settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self.state.settings = settings

    def snapshot(self) -> Snapshot:
        return self.state.snapshot()

    async def on_worker(self, work: Callable[[], Any]) -> Any:
        """`work()` on the worker (`Worker.run`: never, when cancelled while queued)."""
        return await self.worker.run(work)

    def applied(self, result: Any) -> tuple[Any, list[MessageAfterAnswer]]:
        """A DISK handler's answer, its effects applied but the messages to send after
        the answer, which are returned."""
        if not isinstance(result, Outcome):
            return result, []
        later: list[MessageAfterAnswer] = []
        for effect in result.effects:
            if isinstance(effect, DiskCopies):
                self.courses.take_disk_copies(effect)
            elif isinstance(effect, WatchRename):
                waiting = self.state.pending_renames
                self.state.pending_renames = waiting.added(effect.pending, once=effect.offered)
            else:
                later.append(effect)
        return result.answer, later

    def in_background(self, work: Callable[[], None], uri: str) -> None:
        def then() -> None:
            self.diagnostics_changed(uri)

        self.worker.in_background(work, then, f"background work for {uri}")

    def show_message(self, kind: t.MessageType, text: str) -> None:
        params = t.ShowMessageParams(type=kind, message=text)
        self.worker.from_thread(self.window_show_message, params)

    async def ask_client(self, request: Callable[[Any], Any], params: Any) -> Any:
        """A request to the client that gives up (raising) after CLIENT_TIMEOUT."""
        return await asyncio.wait_for(request(params), CLIENT_TIMEOUT)

    def started(self) -> None:
        self.worker.loop = asyncio.get_running_loop()
        if self.log_handler is None:

            def client_log(kind: t.MessageType, text: str) -> None:
                params = t.LogMessageParams(type=kind, message=text)
                self.worker.from_thread(self.window_log_message, params)

            self.log_handler = ClientLogHandler(client_log, self.connection)
            logging.getLogger(LOGGER_NAME).addHandler(self.log_handler)

    def stop_logging(self) -> None:
        """No more log lines to this server's client (its connection has ended)."""
        if self.log_handler is not None:
            logging.getLogger(LOGGER_NAME).removeHandler(self.log_handler)
            self.log_handler = None

    async def ask_configuration(self, params: t.ConfigurationParams) -> list[Any]:
        values: list[Any] = await self.ask_client(self.workspace_configuration_async, params)
        return values

    def expect_courses(self) -> None:
        self.gate.expect()

    def settle_heap(self) -> None:
        """Move what is alive now (the index, an opened document) out of the garbage
        collector's sight (`gc.freeze`), young garbage collected first: a full
        collection would otherwise walk the whole index now and then, 50-100 ms in the
        middle of a keystroke in a big course. Frozen objects are still freed when
        nothing refers to them; only a reference cycle among them is never reclaimed,
        and the index holds none."""
        gc.collect(1)
        gc.freeze()

    def stop_worker(self) -> None:
        self.worker.stop()

    # ----- the course workspace -----------------------------------------------

    async def run_indexing(
        self, title: str, job: Callable[[Callable[[int, int], None]], None]
    ) -> None:
        """Run `job(progress)` on the worker (inline when there is none), reporting
        work-done progress to the client, then read the pending rename journals of the
        indexed courses, show what is new, publish and watch what the courses need."""
        progress = IndexingProgress(self.work_done_progress, self.worker.from_thread)
        await progress.begin(title, self.state.caps.work_done_progress)

        def work() -> list[str]:
            job(progress.report)
            return pending_journals(self.courses.snapshot, self.files.pending_journal)

        began = time.perf_counter()
        journals = self.notices.journals
        try:
            journals = await self.worker.run(work)
            snapshot = self.courses.snapshot
            log.info(
                "%s: %d documents in %d courses, %.2f s",
                title,
                len(snapshot.course_of),
                len(snapshot.courses),
                time.perf_counter() - began,
            )
        except Exception:
            log.exception("indexing failed; the previous index stays in use")
        finally:
            progress.end()
        self.settle_heap()
        self.notices.journals = journals
        self.notices.report(self.courses.snapshot, self.state.language)
        self.diagnostics_changed()
        await self.update_watchers()

    async def index_folders(self, folders: list[str]) -> None:
        """Index the folders, the open documents' courses first; the course gate holds what
        depends on a course until it is indexed (`mfls.lsp.course_gate`)."""
        delay = course_gate.index_delay()

        def first_done(roots: tuple[str, ...]) -> None:
            self.worker.from_thread(self.courses_known, roots)

        def ended() -> None:
            self.gate.end(self.courses.snapshot)

        def job(progress: Callable[[int, int], None]) -> None:
            try:
                if delay:
                    time.sleep(delay)
                self.courses.set_folders(folders)
                self.courses.index_all(progress, first_done)
            finally:
                # Scheduled before the worker's result reaches the loop: the gate opens
                # before `run_indexing` publishes or asks for a refresh.
                self.worker.from_thread(ended)

        self.gate.begin()
        await self.run_indexing("Indexing MarkdownFlow courses", job)

    def courses_known(self, roots: tuple[str, ...]) -> None:
        """The courses at `roots` are indexed, the rest of the workspace not yet: what
        waited on them goes on (`Workspace.index_all`, called on the worker)."""
        self.gate.courses_known(roots)
        self.diagnostics_changed()

    async def update_watchers(self) -> None:
        """(Re-)register `workspace/didChangeWatchedFiles` when the wanted globs change."""
        await self.watchers.update(self.state.caps, self.courses.snapshot)

    # ----- diagnostics ----------------------------------------------------------

    def diagnostics_changed(self, uri: str | None = None) -> None:
        """Something changed (in `uri`, or anywhere when None).

        Pull clients that allow it are asked to pull again after re-indexing; they pull
        an edited document themselves. Push clients get one debounced publish of every
        open document, the edited one first: course diagnostics cross files.
        Renames waiting to be seen applied are looked at again
        (`rename_journals.observe_renames`).
        """
        caps, on_loop = self.state.caps, self.worker.from_thread
        if self.state.pending_renames.waiting:
            on_loop(rename_journals.observe_renames, self.state, self.worker)
        if caps.code_lens_refresh or caps.inlay_hint_refresh:
            on_loop(self.refreshes.schedule_lenses)
        if caps.pull_diagnostics:
            if uri is None and caps.diagnostics_refresh:
                on_loop(self.refreshes.pull)
            return
        on_loop(self.publisher.changed, uri)

    def publish(self, uri: str, skip_empty: bool = False) -> None:
        """Send the diagnostics of `uri` if they changed (`Publisher.publish`)."""
        self.publisher.publish(uri, skip_empty)

    def clear_published(self, uri: str) -> None:
        self.publisher.clear(uri)

    def _send_diagnostics(self, uri: str, items: list[str], version: int | None) -> None:
        buffer = self.state.buffers.get(uri)
        client_uri = buffer.client_uri if buffer is not None else uri
        self.protocol.send_json_text(to_proto.publish_diagnostics_text(client_uri, items, version))
