"""The language server: LSP in, course workspace and features out.

No MarkdownFlow logic lives here. Handlers convert LSP positions to code point offsets,
ask `mfls.workspace` and `mfls.features`, and convert the answers back. Every handler
guards itself: a failure is logged and answered with an empty result.

Threads: the event loop owns the protocol and the open buffers; initial indexing and
disk changes run on one background worker. The course workspace serializes its own
updates and swaps immutable snapshots, so requests keep being answered while the
worker reads files. Messages to the client from the worker go through
`loop.call_soon_threadsafe`.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from lsprotocol import types as t
from pygls.capabilities import ServerCapabilitiesBuilder
from pygls.lsp.server import LanguageServer

from mfls import __version__
from mfls.disk import read_bytes
from mfls.features import (
    completion,
    diagnostics,
    hover,
    navigation,
    semantic_tokens,
    symbols,
)
from mfls.lsp import convert, refactor_handlers
from mfls.lsp.documents import (
    Converter,
    OpenBuffer,
    Texts,
    is_course_file,
    is_markdown,
)
from mfls.lsp.logs import LOGGER_NAME, ClientLogHandler, apply_levels
from mfls.lsp.protocol import MflsProtocol, capability
from mfls.lsp.settings import SECTION, Settings, merge_settings
from mfls.text.line_index import Encoding, LineIndex
from mfls.workspace.index import WorkspaceSnapshot
from mfls.workspace.uris import canonical_uri, path_to_uri, uri_to_path
from mfls.workspace.workspace import Workspace

log = logging.getLogger(LOGGER_NAME)

F = TypeVar("F", bound=Callable[..., Any])

PROGRESS_EVERY = 200  # files between two `$/progress` reports
CLIENT_TIMEOUT = 10.0  # seconds to wait for the client's answer to a server request
COMPLETION_LIMIT = 100  # items per answer; past it the list is incomplete and re-asked
WATCH_GLOBS = ("**/*.md", "**/*.markdown", "**/*.mdflow", "**/mfcourse.toml")
_FILE_CHANGE = {
    t.FileChangeType.Created: "created",
    t.FileChangeType.Changed: "changed",
    t.FileChangeType.Deleted: "deleted",
}


def guarded(default: Callable[[], Any]) -> Callable[[F], F]:
    """Never let a handler's failure reach pygls: log it, answer `default()`."""

    def decorate(handler: F) -> F:
        if asyncio.iscoroutinefunction(handler):

            @functools.wraps(handler)
            async def run_async(*args: Any, **kwargs: Any) -> Any:
                try:
                    return await handler(*args, **kwargs)
                except Exception:
                    log.exception("%s failed", handler.__name__)
                    return default()

            return run_async  # type: ignore[return-value]

        @functools.wraps(handler)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return handler(*args, **kwargs)
            except Exception:
                log.exception("%s failed", handler.__name__)
                return default()

        return run  # type: ignore[return-value]

    return decorate


def _none() -> None:
    return None


class MflsServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(name="mfls", version=__version__, protocol_cls=MflsProtocol)
        self.settings = Settings()
        self.courses = Workspace()
        self.texts = Texts(self._indexed_text)
        self.convert = Converter(self.texts)
        self.pull_diagnostics = False
        self.folders: list[str] = []
        self.loop: asyncio.AbstractEventLoop | None = None
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mfls-index")
        self._published: dict[str, list[t.Diagnostic]] = {}
        self._pending: asyncio.TimerHandle | None = None
        self._edited: dict[str, None] = {}  # open documents edited since the last publish
        self._watch_registration: str | None = None
        self._watchers: list[t.FileSystemWatcher] = []
        self._shown: set[str] = set()
        self.completion_docs: dict[str, str] = {}  # key -> documentation, last completion

    # ----- plumbing -------------------------------------------------------------

    def _indexed_text(self, uri: str) -> str | None:
        found = self.courses.snapshot.entry(uri)
        return None if found is None else found[1].text

    def from_thread(self, callback: Callable[..., Any], *args: Any) -> None:
        """Run `callback(*args)` on the event loop, from any thread."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        if _running_loop() is loop:
            callback(*args)
        else:
            loop.call_soon_threadsafe(callback, *args)

    def client_log(self, kind: t.MessageType, text: str) -> None:
        self.from_thread(self.window_log_message, t.LogMessageParams(type=kind, message=text))

    def show_message(self, kind: t.MessageType, text: str) -> None:
        self.from_thread(self.window_show_message, t.ShowMessageParams(type=kind, message=text))

    def apply_settings(self, value: Any) -> None:
        settings, problems = merge_settings(self.settings, value)
        self.settings = settings
        apply_levels(settings.log_level, settings.trace)
        for problem in problems:
            log.warning("ignored setting %s", problem)

    async def ask_client(self, request: Callable[[Any], Any], params: Any) -> Any:
        """A request to the client that gives up (raising) after CLIENT_TIMEOUT."""
        return await asyncio.wait_for(request(params), CLIENT_TIMEOUT)

    def capability(self, path: str) -> Any:
        return capability(self.client_capabilities, path)

    # ----- the course workspace -----------------------------------------------

    async def run_indexing(
        self, title: str, job: Callable[[Callable[[int, int], None]], None]
    ) -> None:
        """Run `job(progress)` on the worker, reporting work-done progress to the client."""
        token: str | None = None
        if self.capability("window.work_done_progress"):
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

        def work() -> None:
            job(progress)

        began = time.perf_counter()
        try:
            assert self.loop is not None
            await self.loop.run_in_executor(self._worker, work)
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
        self.report_course_problems()
        self.diagnostics_changed()
        await self.update_watchers()

    def wanted_watchers(self) -> list[t.FileSystemWatcher]:
        """Markdown files and course files anywhere, plus each course's own globs."""
        patterns: list[str | t.RelativePattern] = list(WATCH_GLOBS)
        relative = self.capability("workspace.did_change_watched_files.relative_pattern_support")
        for course in sorted(self.courses.snapshot.courses.values(), key=lambda c: c.id):
            if course.root is None:
                continue
            for glob in (*course.config.lessons, *course.config.references):
                glob = glob.strip().removeprefix("./").lstrip("/")
                if relative:
                    base = path_to_uri(course.root)
                    patterns.append(t.RelativePattern(base_uri=base, pattern=glob))
                elif f"**/{glob}" not in patterns and glob not in patterns:
                    patterns.append(glob if glob.startswith("**/") else f"**/{glob}")
        return [t.FileSystemWatcher(glob_pattern=pattern) for pattern in patterns]

    async def update_watchers(self) -> None:
        """(Re-)register `workspace/didChangeWatchedFiles` when the wanted globs change."""
        if not self.capability("workspace.did_change_watched_files.dynamic_registration"):
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

    def report_course_problems(self) -> None:
        """Show each course file problem once, while it lasts."""
        current = {
            f"{course.config_path or course.id}: {problem.message}"
            for course in self.courses.snapshot.courses.values()
            for problem in course.problems
        }
        for text in sorted(current - self._shown):
            self.show_message(t.MessageType.Warning, f"mfls: {text}")
        self._shown = current

    # ----- diagnostics ----------------------------------------------------------

    def diagnostics_of(self, uri: str) -> list[t.Diagnostic]:
        snapshot = self.courses.snapshot
        if is_course_file(uri):
            return self._course_file_diagnostics(snapshot, uri)
        index = self.texts.index(uri)
        if index is None:
            return []
        items = diagnostics.document_diagnostics(snapshot, uri)
        return [convert.diagnostic(self.convert, index, item) for item in items]

    def _course_file_diagnostics(self, snapshot: WorkspaceSnapshot, uri: str) -> list[t.Diagnostic]:
        for course in snapshot.courses.values():
            if convert.course_file_uri(course) != uri:
                continue
            items = diagnostics.course_file_diagnostics(snapshot, course.id)
            path = uri_to_path(uri)
            if not items or path is None:
                return []
            data, _ = read_bytes(path)
            text = "" if data is None else data.decode("utf-8", errors="replace")
            index = LineIndex(text)
            return [convert.diagnostic(self.convert, index, item) for item in items]
        return []

    def diagnostics_changed(self, uri: str | None = None) -> None:
        """Something changed (in `uri`, or anywhere when None).

        Pull clients that allow it are asked to pull again after re-indexing; they pull
        an edited document themselves. Push clients get one debounced publish of every
        open document, the edited one first: course diagnostics cross files.
        """
        if self.pull_diagnostics:
            if uri is None and self.capability("workspace.diagnostics.refresh_support"):
                self.from_thread(self._refresh_pull)
            return
        self.from_thread(self._schedule_publish, uri)

    def _refresh_pull(self) -> None:
        self.protocol.send_request(t.WORKSPACE_DIAGNOSTIC_REFRESH, None)

    def _schedule_publish(self, uri: str | None) -> None:
        assert self.loop is not None
        if uri is not None:
            self._edited[uri] = None
        if self._pending is not None:
            self._pending.cancel()
        self._pending = self.loop.call_later(self.settings.diagnostic_delay, self._publish_open)

    def _publish_open(self) -> None:
        self._pending = None
        edited, self._edited = list(self._edited), {}
        first = [uri for uri in edited if uri in self.texts.open]
        for uri in first + [uri for uri in self.texts.open if uri not in first]:
            self.publish(uri)
        for uri in self._course_files():
            self.publish(uri)

    def _course_files(self) -> list[str]:
        files = []
        for course in self.courses.snapshot.courses.values():
            uri = convert.course_file_uri(course)
            if uri is not None and (course.problems or uri in self._published):
                files.append(uri)
        return files

    def publish(self, uri: str) -> None:
        try:
            items = self.diagnostics_of(uri)
        except Exception:
            log.exception("diagnostics failed for %s", uri)
            return
        if self._published.get(uri) == items:
            return
        self._published[uri] = items
        buffer = self.texts.open.get(uri)
        self.text_document_publish_diagnostics(
            t.PublishDiagnosticsParams(
                uri=self.texts.client_uri(uri),
                diagnostics=items,
                version=buffer.version if buffer is not None else None,
            )
        )

    def clear_published(self, uri: str) -> None:
        if self._published.pop(uri, None):
            self.text_document_publish_diagnostics(
                t.PublishDiagnosticsParams(uri=self.texts.client_uri(uri), diagnostics=[])
            )


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _result_id(items: list[t.Diagnostic], server: MflsServer) -> str:
    payload = json.dumps(
        [server.protocol._converter.unstructure(item) for item in items], sort_keys=True
    )
    return hashlib.blake2b(payload.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def create_server() -> MflsServer:
    server = MflsServer()
    _register(server)
    refactor_handlers.register(server)
    return server


def _register(server: MflsServer) -> None:
    ls = server

    @ls.feature(t.INITIALIZE)
    @guarded(_none)
    def initialize(ls: MflsServer, params: t.InitializeParams) -> None:
        ls.loop = asyncio.get_running_loop()
        logging.getLogger(LOGGER_NAME).addHandler(ClientLogHandler(ls.client_log))
        caps = params.capabilities
        chosen = ServerCapabilitiesBuilder.choose_position_encoding(caps)
        ls.convert.encoding = Encoding.parse(getattr(chosen, "value", chosen))
        ls.apply_settings(params.initialization_options)
        ls.pull_diagnostics = capability(caps, "text_document.diagnostic") is not None
        folders = [f.uri for f in params.workspace_folders or []]
        if not folders and params.root_uri:
            folders = [params.root_uri]
        ls.folders = [p for p in (uri_to_path(canonical_uri(u)) for u in folders) if p]
        if ls.pull_diagnostics:
            ls.feature(
                t.TEXT_DOCUMENT_DIAGNOSTIC,
                t.DiagnosticOptions(
                    identifier="mfls", inter_file_dependencies=True, workspace_diagnostics=False
                ),
            )(document_diagnostic)
        log.info(
            "mfls %s: %s positions, %s diagnostics",
            __version__,
            ls.convert.encoding.value,
            "pull" if ls.pull_diagnostics else "push",
        )

    @guarded(lambda: t.RelatedFullDocumentDiagnosticReport(items=[]))
    def document_diagnostic(
        ls: MflsServer, params: t.DocumentDiagnosticParams
    ) -> t.RelatedFullDocumentDiagnosticReport | t.RelatedUnchangedDocumentDiagnosticReport:
        uri = canonical_uri(params.text_document.uri)
        items = ls.diagnostics_of(uri)
        result_id = _result_id(items, ls)
        if params.previous_result_id == result_id:
            return t.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return t.RelatedFullDocumentDiagnosticReport(items=items, result_id=result_id)

    @ls.feature(t.INITIALIZED)
    @guarded(_none)
    async def initialized(ls: MflsServer, params: t.InitializedParams) -> None:
        await pull_configuration(ls)
        await ls.update_watchers()
        folders = list(ls.folders)

        def job(progress: Callable[[int, int], None]) -> None:
            ls.courses.set_folders(folders)
            ls.courses.index_all(progress)

        await ls.run_indexing("Indexing MarkdownFlow courses", job)

    async def pull_configuration(ls: MflsServer) -> None:
        if not ls.capability("workspace.configuration"):
            return
        try:
            values = await ls.ask_client(
                ls.workspace_configuration_async,
                t.ConfigurationParams(items=[t.ConfigurationItem(section=SECTION)]),
            )
        except Exception:
            log.warning("workspace/configuration failed; keeping the current settings")
            return
        if values:
            ls.apply_settings(values[0] or {})

    @ls.feature(t.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guarded(_none)
    async def did_change_configuration(
        ls: MflsServer, params: t.DidChangeConfigurationParams
    ) -> None:
        if ls.capability("workspace.configuration"):
            await pull_configuration(ls)
        else:
            ls.apply_settings(params.settings)
        ls.diagnostics_changed()

    @ls.feature(t.TEXT_DOCUMENT_DID_OPEN)
    @guarded(_none)
    def did_open(ls: MflsServer, params: t.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        if not is_markdown(doc.uri, doc.language_id):
            return
        uri = canonical_uri(doc.uri)
        ls.texts.open[uri] = OpenBuffer(doc.uri, doc.version, LineIndex(doc.text))
        ls.courses.open(uri, doc.text, doc.version)
        ls.diagnostics_changed(uri)

    @ls.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    @guarded(_none)
    def did_change(ls: MflsServer, params: t.DidChangeTextDocumentParams) -> None:
        uri = canonical_uri(params.text_document.uri)
        buffer = ls.texts.open.get(uri)
        if buffer is None:
            return
        index = buffer.index
        edits: list[tuple[int, int, str]] = []
        for change in params.content_changes:
            if isinstance(change, t.TextDocumentContentChangePartial):
                r = change.range
                start = index.offset(r.start.line, r.start.character, ls.convert.encoding)
                end = index.offset(r.end.line, r.end.character, ls.convert.encoding)
                start, end = min(start, end), max(start, end)
            else:
                start, end = 0, len(index.text)
            edits.append((start, end, change.text))
            index = index.edited(start, end, change.text)
        buffer.index = index
        buffer.version = params.text_document.version
        try:
            ls.courses.change(uri, edits, buffer.version)
        except Exception:
            log.exception("applying an edit to %s failed; reloading the whole buffer", uri)
            ls.courses.open(uri, index.text, buffer.version)
        ls.diagnostics_changed(uri)

    @ls.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    @guarded(_none)
    def did_close(ls: MflsServer, params: t.DidCloseTextDocumentParams) -> None:
        uri = canonical_uri(params.text_document.uri)
        if ls.texts.open.pop(uri, None) is None:
            return
        ls.texts.forget(uri)
        ls.courses.close(uri)
        if not ls.pull_diagnostics:
            ls.clear_published(uri)
        ls.diagnostics_changed(uri)

    @ls.feature(t.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded(_none)
    async def did_change_watched_files(
        ls: MflsServer, params: t.DidChangeWatchedFilesParams
    ) -> None:
        changes = []
        for event in params.changes:
            path = uri_to_path(canonical_uri(event.uri))
            if path is not None:
                changes.append((path, _FILE_CHANGE.get(event.type, "changed")))
        if not changes:
            return

        def job(progress: Callable[[int, int], None]) -> None:
            ls.courses.files_changed(changes)

        await ls.run_indexing("Updating MarkdownFlow courses", job)

    @ls.feature(t.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    @guarded(_none)
    async def did_change_workspace_folders(
        ls: MflsServer, params: t.DidChangeWorkspaceFoldersParams
    ) -> None:
        removed = {uri_to_path(canonical_uri(f.uri)) for f in params.event.removed}
        added = [uri_to_path(canonical_uri(f.uri)) for f in params.event.added]
        folders = [p for p in ls.folders if p not in removed]
        folders += [p for p in added if p and p not in folders]
        ls.folders = folders

        def job(progress: Callable[[int, int], None]) -> None:
            ls.courses.set_folders(folders)
            ls.courses.index_all(progress)

        await ls.run_indexing("Indexing MarkdownFlow courses", job)

    # ----- features -------------------------------------------------------------

    @ls.feature(
        t.TEXT_DOCUMENT_COMPLETION,
        t.CompletionOptions(trigger_characters=["{"], resolve_provider=True),
    )
    @guarded(_none)
    def on_completion(ls: MflsServer, params: t.CompletionParams) -> t.CompletionList | None:
        uri = canonical_uri(params.text_document.uri)
        index = ls.texts.index(uri)
        if index is None:
            return None
        offset = index.offset(params.position.line, params.position.character, ls.convert.encoding)
        result = completion.complete(ls.courses.snapshot, uri, offset, limit=COMPLETION_LIMIT)
        if result is None:
            return None
        lazy = "documentation" in (
            ls.capability("text_document.completion.completion_item.resolve_support.properties")
            or ()
        )
        if lazy:
            ls.completion_docs = {item.key: item.documentation for item in result.items}
        return convert.completion_list(ls.convert, index, result, lazy)

    @ls.feature(t.COMPLETION_ITEM_RESOLVE)
    def on_completion_resolve(ls: MflsServer, item: t.CompletionItem) -> t.CompletionItem:
        try:
            key = item.data.get("key") if isinstance(item.data, dict) else None
            return convert.resolve_completion(item, ls.completion_docs.get(key) if key else None)
        except Exception:
            log.exception("completionItem/resolve failed")
            return item

    @ls.feature(t.TEXT_DOCUMENT_HOVER)
    @guarded(_none)
    def on_hover(ls: MflsServer, params: t.HoverParams) -> t.Hover | None:
        uri = canonical_uri(params.text_document.uri)
        index = ls.texts.index(uri)
        if index is None:
            return None
        offset = index.offset(params.position.line, params.position.character, ls.convert.encoding)
        info = hover.hover(ls.courses.snapshot, uri, offset)
        return None if info is None else convert.hover(ls.convert, index, info)

    def definition_like(
        ls: MflsServer, params: t.TextDocumentPositionParams, method: str
    ) -> list[t.LocationLink] | list[t.Location] | None:
        uri = canonical_uri(params.text_document.uri)
        index = ls.texts.index(uri)
        if index is None:
            return None
        offset = index.offset(params.position.line, params.position.character, ls.convert.encoding)
        targets = navigation.definition(ls.courses.snapshot, uri, offset)
        if not targets:
            return None
        links = bool(ls.capability(f"text_document.{method}.link_support"))
        return convert.definition(ls.convert, index, targets, links)

    @ls.feature(t.TEXT_DOCUMENT_DEFINITION)
    @guarded(_none)
    def on_definition(ls: MflsServer, params: t.DefinitionParams) -> Any:
        return definition_like(ls, params, "definition")

    @ls.feature(t.TEXT_DOCUMENT_DECLARATION)
    @guarded(_none)
    def on_declaration(ls: MflsServer, params: t.DeclarationParams) -> Any:
        return definition_like(ls, params, "declaration")

    @ls.feature(t.TEXT_DOCUMENT_REFERENCES)
    @guarded(_none)
    def on_references(ls: MflsServer, params: t.ReferenceParams) -> list[t.Location] | None:
        uri = canonical_uri(params.text_document.uri)
        index = ls.texts.index(uri)
        if index is None:
            return None
        offset = index.offset(params.position.line, params.position.character, ls.convert.encoding)
        found = navigation.references(
            ls.courses.snapshot, uri, offset, params.context.include_declaration
        )
        return convert.locations(ls.convert, found)

    @ls.feature(t.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
    @guarded(_none)
    def on_highlight(
        ls: MflsServer, params: t.DocumentHighlightParams
    ) -> list[t.DocumentHighlight] | None:
        uri = canonical_uri(params.text_document.uri)
        index = ls.texts.index(uri)
        if index is None:
            return None
        offset = index.offset(params.position.line, params.position.character, ls.convert.encoding)
        found = navigation.highlights(ls.courses.snapshot, uri, offset)
        return convert.highlights(ls.convert, index, found)

    @ls.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @guarded(_none)
    def on_document_symbol(
        ls: MflsServer, params: t.DocumentSymbolParams
    ) -> list[t.DocumentSymbol] | list[t.SymbolInformation] | None:
        uri = canonical_uri(params.text_document.uri)
        index = ls.texts.index(uri)
        if index is None:
            return None
        found = symbols.document_symbols(ls.courses.snapshot, uri)
        if ls.capability("text_document.document_symbol.hierarchical_document_symbol_support"):
            return convert.document_symbols(ls.convert, index, found)
        return convert.flat_symbols(ls.convert, uri, index, found)

    @ls.feature(t.WORKSPACE_SYMBOL)
    @guarded(_none)
    def on_workspace_symbol(
        ls: MflsServer, params: t.WorkspaceSymbolParams
    ) -> list[t.SymbolInformation] | None:
        found = symbols.workspace_symbols(ls.courses.snapshot, params.query)
        return convert.workspace_symbols(ls.convert, found)

    legend = t.SemanticTokensLegend(
        token_types=list(semantic_tokens.TOKEN_TYPES),
        token_modifiers=list(semantic_tokens.TOKEN_MODIFIERS),
    )

    def tokens_in(
        ls: MflsServer, document: t.TextDocumentIdentifier, range_: t.Range | None
    ) -> t.SemanticTokens:
        uri = canonical_uri(document.uri)
        index = ls.texts.index(uri)
        if index is None:
            return t.SemanticTokens(data=[])
        start = end = None
        if range_ is not None:
            start, end = sorted(
                index.offset(p.line, p.character, ls.convert.encoding)
                for p in (range_.start, range_.end)
            )
        found = semantic_tokens.tokens(ls.courses.snapshot, uri, start, end)
        spans = [(x.start, x.start + x.length, x.type, x.modifiers) for x in found]
        return t.SemanticTokens(data=convert.encode_tokens(ls.convert, index, spans))

    @ls.feature(t.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, legend)
    @guarded(lambda: t.SemanticTokens(data=[]))
    def on_tokens_full(ls: MflsServer, params: t.SemanticTokensParams) -> t.SemanticTokens:
        return tokens_in(ls, params.text_document, None)

    @ls.feature(t.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, legend)
    @guarded(lambda: t.SemanticTokens(data=[]))
    def on_tokens_range(ls: MflsServer, params: t.SemanticTokensRangeParams) -> t.SemanticTokens:
        return tokens_in(ls, params.text_document, params.range)

    @ls.feature(t.SHUTDOWN)
    def on_shutdown(ls: MflsServer, params: Any = None) -> None:
        ls._worker.shutdown(wait=False, cancel_futures=True)
