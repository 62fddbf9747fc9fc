"""The language server's plumbing around its state: what lives between requests.

No MarkdownFlow logic lives here, and no request handler: those are module-level
functions in `mfls.lsp.handlers`, registered from the table in `mfls.lsp.routes`. The
state handlers see or change is `self.state` (`mfls.lsp.state.ServerState`).

Threads: the event loop owns the protocol and the state; initial indexing, disk changes,
DISK handlers and the appends of rename records run on one background worker (inline,
on the loop, when the server is built `inline`: the synchronous mode of `mfls.lsp.sync`,
which starts no thread and no process). The course workspace serializes its own
updates and swaps immutable snapshots, so requests keep being answered while the
worker reads files. Messages to the client from the worker go through
`loop.call_soon_threadsafe`. Work for the worker runs in a copy of the context that
asked for it (`logs.ContextThreads`): its log records are on behalf of the same socket
connection (`logs.CONNECTION`).
"""

from __future__ import annotations

import asyncio
import datetime
import functools
import gc
import logging
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from typing import Any

from lsprotocol import types as t
from pygls.lsp.server import LanguageServer

from mfls import __version__, disk
from mfls.features import diagnostics
from mfls.features import rename_record as rr
from mfls.lsp import course_gate, to_proto
from mfls.lsp.capabilities import Capabilities
from mfls.lsp.course_gate import CourseGate
from mfls.lsp.diagnostic_memo import DiagnosticMemo, reported_documents, structure_uri
from mfls.lsp.effects import DiskCopies, MessageAfterAnswer, Outcome, WatchRename
from mfls.lsp.files import DiskFiles
from mfls.lsp.logs import LOGGER_NAME, ClientLogHandler, ContextThreads, in_this_context
from mfls.lsp.protocol import MflsProtocol
from mfls.lsp.publisher import Publisher
from mfls.lsp.settings import Settings
from mfls.lsp.snapshot import Snapshot
from mfls.lsp.state import ServerState
from mfls.workspace.globs import exact_name
from mfls.workspace.parallel import default_jobs
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace

log = logging.getLogger(LOGGER_NAME)

PROGRESS_EVERY = 200  # files between two `$/progress` reports
LENS_REFRESH_DELAY = 0.3  # seconds of quiet before code lenses are refreshed
CLIENT_TIMEOUT = 10.0  # seconds to wait for the client's answer to a server request
WATCH_GLOBS = (
    "**/*.md",
    "**/*.markdown",
    "**/*.mdflow",
    "**/mfcourse.toml",
    # An AI-Shifu course folder: its structure and sync record change the course.
    "**/structure.json",
    "**/.shifu-sync.json",
)
WATCHED_SUFFIXES = (".md", ".markdown", ".mdflow")


class MflsServer(LanguageServer):
    protocol: MflsProtocol

    def __init__(self, inline: bool = False) -> None:
        wire = to_proto.wire_converter()
        super().__init__(
            name="mfls",
            version=__version__,
            protocol_cls=MflsProtocol,
            converter_factory=lambda: wire,
        )
        workspace = Workspace(jobs=1 if inline else default_jobs())
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
        self.loop: asyncio.AbstractEventLoop | None = None
        self._worker = (
            None if inline else ContextThreads(max_workers=1, thread_name_prefix="mfls-index")
        )
        """Where indexing runs; None: inline, on the loop (`mfls.lsp.sync`)."""
        self.publisher = Publisher(_PublishSource(self), _LoopClock(self), self.send_diagnostics)
        """Pushes diagnostics to a client that does not pull them."""
        self._lens_refresh: asyncio.TimerHandle | None = None
        self._watch_registration: str | None = None
        self._watchers: list[t.FileSystemWatcher] = []
        self._shown: set[str] = set()
        self._journals: list[str] = []  # the messages of pending rename journals
        self.connection: int | None = None
        """The socket connection served (`mfls serve --ws`): its client is sent the log
        records of that connection only."""
        self.log_handler: ClientLogHandler | None = None

    @property
    def courses(self) -> Workspace:
        return self.state.workspace

    @property
    def caps(self) -> Capabilities:
        return self.state.caps

    @property
    def settings(self) -> Settings:
        return self.state.settings

    @settings.setter
    def settings(self, settings: Settings) -> None:
        self.state.settings = settings

    @property
    def language(self) -> str:
        return self.state.language

    # ----- plumbing -------------------------------------------------------------

    def _indexed_text(self, uri: str) -> str | None:
        found = self.courses.snapshot.entry(uri)
        return None if found is None else found[1].text

    def snapshot(self) -> Snapshot:
        return self.state.snapshot()

    @property
    def inline(self) -> bool:
        """Built for the synchronous mode: no worker thread (`mfls.lsp.sync`)."""
        return self._worker is None

    async def on_worker(self, work: Callable[[], Any]) -> Any:
        """`work()` on the worker thread (after the indexing queued before it). Cancelled
        while it waits there (`$/cancelRequest`), it never runs: the worker looks before
        it starts."""
        if self._worker is None:
            return work()
        assert self.loop is not None
        cancelled = threading.Event()

        def unless_cancelled() -> Any:
            if cancelled.is_set():
                log.debug("cancelled before it started on the worker")
                return None
            return work()

        try:
            return await self.loop.run_in_executor(self._worker, unless_cancelled)
        except asyncio.CancelledError:
            cancelled.set()
            raise

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
        if self._worker is not None:
            try:
                done = self._worker.submit(work)
            except RuntimeError:  # the worker has stopped (shutdown): work here
                pass
            else:
                done.add_done_callback(
                    in_this_context(functools.partial(self._background_done, uri))
                )
                return
        try:
            work()
        except Exception:
            log.exception("background work for %s failed", uri)
        self.diagnostics_changed(uri)

    def _background_done(self, uri: str, done: Future[None]) -> None:
        if done.cancelled():  # shutdown
            return
        if done.exception() is not None:
            log.error("background work for %s failed", uri, exc_info=done.exception())
        self.from_thread(self.diagnostics_changed, uri)

    def from_thread(self, callback: Callable[..., Any], *args: Any) -> None:
        """Run `callback(*args)` on the event loop, from any thread."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if _running_loop() is loop:
            callback(*args)
        else:
            loop.call_soon_threadsafe(callback, *args)

    def after_answer(self, callback: Callable[..., Any], *args: Any) -> None:
        """Run `callback(*args)` on the event loop once the request being handled (on
        the loop) has been answered: pygls sends a synchronous handler's answer before
        the loop runs anything else."""
        loop = self.loop
        if loop is not None and not loop.is_closed():
            loop.call_soon(callback, *args)

    def client_log(self, kind: t.MessageType, text: str) -> None:
        self.from_thread(self.window_log_message, t.LogMessageParams(type=kind, message=text))

    def show_message(self, kind: t.MessageType, text: str) -> None:
        self.from_thread(self.window_show_message, t.ShowMessageParams(type=kind, message=text))

    async def ask_client(self, request: Callable[[Any], Any], params: Any) -> Any:
        """A request to the client that gives up (raising) after CLIENT_TIMEOUT."""
        return await asyncio.wait_for(request(params), CLIENT_TIMEOUT)

    def started(self) -> None:
        self.loop = asyncio.get_running_loop()
        if self.log_handler is None:
            self.log_handler = ClientLogHandler(self.client_log, self.connection)
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
        if self._worker is not None:
            self._worker.shutdown(wait=False, cancel_futures=True)

    # ----- the course workspace -----------------------------------------------

    async def run_indexing(
        self, title: str, job: Callable[[Callable[[int, int], None]], None]
    ) -> None:
        """Run `job(progress)` on the worker (inline when there is none), reporting
        work-done progress to the client."""
        token: str | None = None
        if self.caps.work_done_progress:
            token = f"mfls-index-{uuid.uuid4()}"
            try:
                await asyncio.wait_for(self.work_done_progress.create_async(token), CLIENT_TIMEOUT)
            except Exception:
                log.warning("the client refused a progress token; indexing without progress")
                token = None
        if token is not None:
            self.work_done_progress.begin(
                token, t.WorkDoneProgressBegin(title=title, percentage=0, cancellable=False)
            )
        last = [0]

        def progress(done: int, total: int) -> None:
            if token is None or (done - last[0] < PROGRESS_EVERY and done < total):
                return
            last[0] = done
            percentage = int(done * 100 / total) if total else 100
            report = t.WorkDoneProgressReport(
                message=f"{done}/{total} files", percentage=percentage
            )
            self.from_thread(self.work_done_progress.report, token, report)

        def work() -> list[str]:
            job(progress)
            return self.pending_journals()

        began = time.perf_counter()
        journals = self._journals
        try:
            journals = await self.on_worker(work)
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
            if token is not None:
                self.work_done_progress.end(token, t.WorkDoneProgressEnd(message="indexed"))
        self.settle_heap()
        self._journals = journals
        self.report_course_problems(journals)
        self.diagnostics_changed()
        await self.update_watchers()

    async def index_folders(self, folders: list[str]) -> None:
        """Index the folders, the open documents' courses first; the course gate holds what
        depends on a course until it is indexed (`mfls.lsp.course_gate`)."""
        delay = course_gate.index_delay()

        def first_done(roots: tuple[str, ...]) -> None:
            self.from_thread(self.courses_known, roots)

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
                self.from_thread(ended)

        self.gate.begin()
        await self.run_indexing("Indexing MarkdownFlow courses", job)

    def courses_known(self, roots: tuple[str, ...]) -> None:
        """The courses at `roots` are indexed, the rest of the workspace not yet: what
        waited on them goes on (`Workspace.index_all`, called on the worker)."""
        self.gate.courses_known(roots)
        self.diagnostics_changed()

    def wanted_watchers(self) -> list[t.FileSystemWatcher]:
        """Markdown files and course files anywhere, plus each course's own globs (but
        the exact names of Markdown files, which `WATCH_GLOBS` watch already: `mfls
        unpack` lists every lesson)."""
        patterns: list[str | t.RelativePattern] = list(WATCH_GLOBS)
        relative = self.caps.watch_relative_patterns
        for course in sorted(self.courses.snapshot.courses.values(), key=lambda c: c.id):
            if course.root is None:
                continue
            for glob in (*course.config.lessons, *course.config.references):
                name = exact_name(glob)
                if name is not None and name.endswith(WATCHED_SUFFIXES):
                    continue
                glob = glob.strip().removeprefix("./").lstrip("/")
                if relative:
                    base = path_to_uri(course.root)
                    patterns.append(t.RelativePattern(base_uri=base, pattern=glob))
                elif f"**/{glob}" not in patterns and glob not in patterns:
                    patterns.append(glob if glob.startswith("**/") else f"**/{glob}")
        return [t.FileSystemWatcher(glob_pattern=pattern) for pattern in patterns]

    async def update_watchers(self) -> None:
        """(Re-)register `workspace/didChangeWatchedFiles` when the wanted globs change."""
        if not self.caps.watch_registration:
            return
        watchers = self.wanted_watchers()
        if watchers == self._watchers:
            return
        try:
            if self._watch_registration is not None:
                await self.ask_client(
                    self.client_unregister_capability_async,
                    t.UnregistrationParams(
                        unregisterations=[
                            t.Unregistration(
                                id=self._watch_registration,
                                method=t.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            )
                        ]
                    ),
                )
                self._watch_registration = None
            registration_id = f"mfls-watch-{uuid.uuid4()}"
            await self.ask_client(
                self.client_register_capability_async,
                t.RegistrationParams(
                    registrations=[
                        t.Registration(
                            id=registration_id,
                            method=t.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                            register_options=t.DidChangeWatchedFilesRegistrationOptions(
                                watchers=watchers
                            ),
                        )
                    ]
                ),
            )
            self._watch_registration = registration_id
            self._watchers = watchers
        except Exception:
            log.warning("the client refused file watching; relying on what it sends")

    def pending_journals(self) -> list[str]:
        """The message of each pending rename journal of an indexed course (an
        interrupted `mfls rename`, with how to finish or undo it). Read on the worker."""
        courses = self.courses.snapshot.courses.values()
        roots = sorted({c.root for c in courses if c.root is not None})
        return [m for m in map(self.files.pending_journal, roots) if m is not None]

    def report_course_problems(self, journals: Iterable[str] = ()) -> None:
        """Show each course file problem (a course over a limit as an error), and each
        pending rename journal's message (`pending_journals`), once, while it lasts."""
        courses = self.courses.snapshot.courses.values()
        said = diagnostics.config_problem_message
        current: set[str] = set()
        errors: set[str] = set()
        for course in courses:
            for problem in course.problems:
                text = f"{course.config_path or course.id}: {said(problem, self.language)}"
                current.add(text)
                if problem.over_limit:
                    errors.add(text)
        current.update(journals)
        for text in sorted(current - self._shown):
            kind = t.MessageType.Error if text in errors else t.MessageType.Warning
            self.show_message(kind, f"mfls: {text}")
        self._shown = current

    # ----- diagnostics ----------------------------------------------------------

    def diagnostics_changed(self, uri: str | None = None) -> None:
        """Something changed (in `uri`, or anywhere when None).

        Pull clients that allow it are asked to pull again after re-indexing; they pull
        an edited document themselves. Push clients get one debounced publish of every
        open document, the edited one first: course diagnostics cross files.
        Renames waiting to be seen applied are looked at again (`observe_renames`).
        """
        if self.state.pending_renames.waiting:
            self.from_thread(self.observe_renames)
        if self.caps.code_lens_refresh or self.caps.inlay_hint_refresh:
            self.from_thread(self._schedule_lens_refresh)
        if self.caps.pull_diagnostics:
            if uri is None and self.caps.diagnostics_refresh:
                self.from_thread(self._refresh_pull)
            return
        self.from_thread(self.publisher.changed, uri)

    def observe_renames(self) -> None:
        """Append the record of each rename whose documents now all hold their new text
        (in an open buffer, or on disk as the watcher reported it)."""
        now = rr.utc_time(datetime.datetime.now(datetime.timezone.utc))
        state = self.state
        state.pending_renames, done = state.pending_renames.observed(self._indexed_text, now)
        if not done:
            return
        try:
            if self._worker is not None:
                self._worker.submit(_append_records, done)
                return
        except RuntimeError:  # the worker has stopped (shutdown): append here
            pass
        _append_records(done)

    def _schedule_lens_refresh(self) -> None:
        """One `workspace/codeLens/refresh` and `workspace/inlayHint/refresh` (those the
        client takes) after the changes pause: lenses and hints count reads in other
        documents too, and a setting may have turned hints off."""
        assert self.loop is not None
        if self._lens_refresh is not None:
            self._lens_refresh.cancel()
        delay = max(self.settings.diagnostic_delay, LENS_REFRESH_DELAY)
        self._lens_refresh = self.loop.call_later(delay, self._refresh_lenses)

    def _refresh_lenses(self) -> None:
        self._lens_refresh = None
        if self.caps.code_lens_refresh:
            self.protocol.send_request(t.WORKSPACE_CODE_LENS_REFRESH, None)
        if self.caps.inlay_hint_refresh:
            self.protocol.send_request(t.WORKSPACE_INLAY_HINT_REFRESH, None)

    def _refresh_pull(self) -> None:
        self.protocol.send_request(t.WORKSPACE_DIAGNOSTIC_REFRESH, None)

    def publish(self, uri: str, skip_empty: bool = False) -> None:
        """Send the diagnostics of `uri` if they changed (`Publisher.publish`)."""
        self.publisher.publish(uri, skip_empty)

    def clear_published(self, uri: str) -> None:
        self.publisher.clear(uri)

    def _client_uri(self, uri: str) -> str:
        buffer = self.state.buffers.get(uri)
        return buffer.client_uri if buffer is not None else uri

    def send_diagnostics(self, uri: str, items: list[str], version: int | None) -> None:
        self.protocol.send_json_text(
            to_proto.publish_diagnostics_text(self._client_uri(uri), items, version)
        )


class _LoopClock:
    """The server's event loop (set by `initialize`) as the publisher's clock."""

    def __init__(self, server: MflsServer) -> None:
        self._server = server

    def call_later(self, delay: float, callback: Callable[..., Any], *args: Any) -> Any:
        assert self._server.loop is not None
        return self._server.loop.call_later(delay, callback, *args)

    def call_soon(self, callback: Callable[..., Any], *args: Any) -> Any:
        assert self._server.loop is not None
        return self._server.loop.call_soon(callback, *args)


class _PublishSource:
    """What the publisher asks, answered from the server's state (`publisher.Source`)."""

    def __init__(self, server: MflsServer) -> None:
        self._server = server

    def delay(self) -> float:
        return self._server.settings.diagnostic_delay

    def open_documents(self) -> Iterable[str]:
        return list(self._server.state.buffers)

    def version(self, uri: str) -> int | None:
        buffer = self._server.state.buffers.get(uri)
        return None if buffer is None else buffer.version

    def ready(self, uri: str) -> bool:
        return self._server.gate.ready(self._server.courses.snapshot, uri)

    def diagnostics(self, uri: str) -> list[str]:
        return self._server.snapshot().diagnostics(uri)

    def course_files(self) -> Iterable[tuple[str, bool]]:
        for course in self._server.courses.snapshot.courses.values():
            uri = to_proto.course_file_uri(course)
            if uri is not None:
                yield uri, bool(course.problems)
            structure = structure_uri(course)  # an AI-Shifu course folder's
            if structure is not None:
                yield structure

    def closed_documents(self, everything: bool, edited: Sequence[str]) -> Iterable[str]:
        """The documents of the courses that changed, when `diagnostics.closedDocuments`
        asks for closed documents."""
        if not self._server.settings.closed_documents:
            return []
        course_of = self._server.courses.snapshot.course_of
        changed = None if everything else [course_of[u] for u in edited if u in course_of]
        return reported_documents(self._server.courses.snapshot, changed)

    def keeps_closed(self, uri: str) -> bool:
        return (
            self._server.settings.closed_documents
            and self._server.courses.snapshot.entry(uri) is not None
        )

    def checks_versions(self) -> bool:
        return self._server.caps.diagnostic_versions


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _append_records(records: Iterable[rr.RenameRecord]) -> None:
    """Append each record to its course's `.mfls/renames.jsonl` (on the worker)."""
    for record in records:
        location = rr.records_path(record.course_root)
        problems = disk.append_line(location, rr.record_line(record), record.course_root)
        if problems:
            log.warning("rename not recorded: %s: %s", problems[0].shown, problems[0].reason)
        else:
            log.info("rename of %r to %r recorded in %s", record.old_key, record.new_key, location)
