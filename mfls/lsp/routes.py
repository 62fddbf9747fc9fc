"""The front end as a table: LSP method -> handler, mode and options, and the one failure
policy.

Each route has a mode (`Mode`): what its handler is given and may do.
- READ: `handler(snapshot, params)`. It gets a `Snapshot` (`mfls.lsp.snapshot`), built
  once per request when the handler runs (after the course gate), and nothing else: it
  cannot change the server, and answers from one moment's texts.
- MUTATE: `handler(state, plumbing, params)`: lifecycle, document sync, settings,
  folders; they change the `ServerState` (`mfls.lsp.state`) and ask the rest of the
  server (messages to the client, indexing, publishing) through `Plumbing`
  (`mfls.lsp.plumbing`), which the server answers.
- DISK: `handler(snapshot, files, params)`: what reads files besides the index (rename and
  code actions re-read closed documents and the rename journal, file renames read the
  course files they edit), through `files` (`mfls.lsp.files.Files`). It runs on the
  worker thread (inline in the synchronous mode), behind the indexing queued before it,
  and changes nothing: it may return an `Outcome` (`mfls.lsp.effects`), whose effects the
  dispatcher applies on the event loop. An open buffer that changed while it ran makes
  its answer stale (ContentModified).

`create_server()` builds an `MflsServer` and registers every route of `ROUTES` in one
loop (`install`). A route with `when` depends on the client: it is installed by the same
loop once `initialize` has read the client's capabilities (pygls computes the server's
capabilities after the `initialize` handler returns). A route with `command` is a
`workspace/executeCommand` command: pygls answers that method from its own table of
commands, which `install` fills; the handler gets the command's argument list.

The failure policy, the same for every handler (`mfls.lsp.faults`):
- a fault (an unexpected exception) is logged once, with its traceback, and the request
  is answered InternalError (-32603); a notification gets nothing;
- a refusal (a `Refusal` returned by the handler) becomes an error answer with its
  reason: RequestFailed, or ContentModified when stale (see `MflsProtocol`);
- a DISK request cancelled while it waits for the worker never runs
  (`MflsServer.on_worker`).

A route with `course` depends on the course of a document (or, when `course` gives None,
on every course): it goes through the course gate (`mfls.lsp.course_gate`). Answered at
once when that course is indexed; otherwise it waits for it (as a generator step, so the
loop goes on) at most `course_gate.WAIT_BOUND` seconds, and past that gets `late` (the
empty answer when None).
"""

from __future__ import annotations

import asyncio
import enum
import functools
import inspect
import logging
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

from lsprotocol import types as t

from mfls.disk import Disk
from mfls.features.refusal import Refusal
from mfls.lsp import course_gate
from mfls.lsp.capabilities import Capabilities
from mfls.lsp.effects import Outcome
from mfls.lsp.faults import failed, is_notification
from mfls.lsp.handlers import (
    assistance,
    authoring,
    commands,
    course_file_links,
    course_files,
    course_map,
    diagnostics,
    documents,
    editing,
    file_renames,
    lifecycle,
    navigation,
)
from mfls.lsp.logs import LOGGER_NAME
from mfls.lsp.plumbing import Plumbing
from mfls.lsp.server import MflsServer

log = logging.getLogger(LOGGER_NAME)


def nothing(params: Any) -> None:
    return None


class Mode(enum.Enum):
    READ = "read"  # handler(snapshot, params)
    MUTATE = "mutate"  # handler(state, plumbing, params): changes the server's state
    DISK = "disk"  # handler(snapshot, files, params), on the worker


@dataclass(frozen=True)
class Route:
    method: str
    handler: Callable[..., Any]  # see `Mode`: -> answer | Refusal (| Outcome), or a coroutine
    mode: Mode
    options: Any = None
    empty: Callable[[Any], Any] = nothing  # the late answer of a gated route, from the params
    when: Callable[[Capabilities], bool] | None = None  # None: offered to every client
    command: bool = False  # `method` names a `workspace/executeCommand` command
    course: Callable[[Any], str | None] | None = None  # the document whose course it needs
    late: Callable[[Any], Any] | None = None  # the answer past the gate's bound (None: empty)


def document(params: Any) -> str | None:
    """The document of a `textDocument/...` request."""
    return str(params.text_document.uri)


def every_course(params: Any) -> None:
    """A request about the whole workspace: it needs every course."""
    return None


def command_document(arguments: list[Any]) -> str | None:
    """The document a command names: `[uri]` or `[{"uri": uri}]` (None: every course)."""
    first = arguments[0] if arguments else None
    if isinstance(first, dict):
        first = first.get("uri")
    return first if isinstance(first, str) else None


def still_indexing(arguments: Any) -> Refusal:
    return Refusal("The course of this document is still being indexed: try again.")


def command(name: str, handler: Callable[..., Any]) -> Route:
    """A `workspace/executeCommand` command about a document's course: the handler gets
    the command's arguments (a list) and its name is offered in
    `executeCommandProvider.commands`."""
    return Route(
        name, handler, Mode.READ, command=True, course=command_document, late=still_indexing
    )


def _pull_client(caps: Capabilities) -> bool:
    return caps.pull_diagnostics


def on_document(
    method: str, handler: Callable[..., Any], options: Any = None, mode: Mode = Mode.READ
) -> Route:
    """A route about one document, whose answer waits for its course (the gate)."""
    return Route(method, handler, mode, options, course=document)


def pulled(method: str, handler: Callable[..., Any], options: Any, course: Any) -> Route:
    """Pulled diagnostics (pull clients only; push clients get `publishDiagnostics`): past
    the gate's bound, the client is told to ask again (`course_gate.not_ready`)."""
    return Route(
        method, handler, Mode.READ, options, when=_pull_client, course=course, late=not_ready
    )


READ, MUTATE, DISK = Mode.READ, Mode.MUTATE, Mode.DISK
not_ready = course_gate.not_ready
TOKENS = assistance.TOKENS_LEGEND

ROUTES: tuple[Route, ...] = (
    # lifecycle
    Route(t.INITIALIZE, lifecycle.initialize, MUTATE),
    Route(t.INITIALIZED, lifecycle.initialized, MUTATE),
    Route(t.WORKSPACE_DID_CHANGE_CONFIGURATION, lifecycle.did_change_configuration, MUTATE),
    Route(t.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, lifecycle.did_change_workspace_folders, MUTATE),
    Route(t.SHUTDOWN, lifecycle.shutdown, MUTATE),
    # documents
    Route(t.TEXT_DOCUMENT_DID_OPEN, documents.did_open, MUTATE),
    Route(t.TEXT_DOCUMENT_DID_CHANGE, documents.did_change, MUTATE),
    Route(t.TEXT_DOCUMENT_DID_CLOSE, documents.did_close, MUTATE),
    Route(t.WORKSPACE_DID_CHANGE_WATCHED_FILES, documents.did_change_watched_files, MUTATE),
    # assistance
    on_document(t.TEXT_DOCUMENT_COMPLETION, assistance.complete, assistance.COMPLETION_OPTIONS),
    Route(t.COMPLETION_ITEM_RESOLVE, assistance.resolve_completion, READ),
    on_document(t.TEXT_DOCUMENT_HOVER, assistance.on_hover),
    Route(
        t.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
        assistance.tokens_full,
        READ,
        TOKENS,
        empty=assistance.no_tokens,
        course=document,
    ),
    Route(
        t.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE,
        assistance.tokens_range,
        READ,
        TOKENS,
        empty=assistance.no_tokens,
        course=document,
    ),
    # navigation
    on_document(t.TEXT_DOCUMENT_DEFINITION, navigation.definition),
    on_document(t.TEXT_DOCUMENT_DECLARATION, navigation.declaration),
    on_document(t.TEXT_DOCUMENT_REFERENCES, navigation.references),
    Route(t.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT, navigation.highlights, READ),
    Route(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL, navigation.document_symbols, READ),
    Route(t.TEXT_DOCUMENT_FOLDING_RANGE, navigation.folding_ranges, READ),
    Route(t.WORKSPACE_SYMBOL, navigation.workspace_symbols, READ, course=every_course),
    # authoring
    on_document(t.TEXT_DOCUMENT_CODE_LENS, authoring.code_lenses, authoring.CODE_LENS_OPTIONS),
    on_document(t.TEXT_DOCUMENT_INLAY_HINT, authoring.hints, authoring.INLAY_HINT_OPTIONS),
    on_document(
        t.TEXT_DOCUMENT_DOCUMENT_LINK,
        course_file_links.links,
        course_file_links.DOCUMENT_LINK_OPTIONS,
    ),
    # editing
    on_document(t.TEXT_DOCUMENT_PREPARE_RENAME, editing.prepare_rename),
    on_document(t.TEXT_DOCUMENT_RENAME, editing.rename, mode=DISK),
    on_document(
        t.TEXT_DOCUMENT_CODE_ACTION, editing.code_action, editing.CODE_ACTION_OPTIONS, DISK
    ),
    Route(
        t.WORKSPACE_WILL_RENAME_FILES,
        file_renames.will_rename_files,
        DISK,
        file_renames.WILL_RENAME_OPTIONS,
        course=every_course,  # the renamed files may lie in any course, folders too
    ),
    # diagnostics
    pulled(
        t.TEXT_DOCUMENT_DIAGNOSTIC, diagnostics.document_diagnostic, diagnostics.OPTIONS, document
    ),
    pulled(t.WORKSPACE_DIAGNOSTIC, diagnostics.workspace_diagnostic, None, every_course),
    # commands (`workspace/executeCommand`: pygls answers it from its command table)
    command(commands.COURSE_INFO, commands.course_info_command),
    command(course_map.COURSE_KEYS, course_map.course_keys),
    command(course_map.COURSE_MAP, course_map.course_map),
    command(course_files.COURSE_FILES, course_files.course_files),
)


def create_server(
    routes: Sequence[Route] = ROUTES, inline: bool = False, disk: Disk | None = None
) -> MflsServer:
    """The server; `inline`: indexing on the loop, no thread or process (`mfls.lsp.sync`);
    `disk`: the file tree its workspace reads (the real file system when None)."""
    server = MflsServer(inline, disk)
    server.offer = functools.partial(install, server, routes)
    install(server, routes)
    return server


def install(server: MflsServer, routes: Sequence[Route], caps: Capabilities | None = None) -> None:
    """Register the routes every client gets (`caps` None), or those this client's
    capabilities call for."""
    for route in routes:
        wanted = route.when is None if caps is None else route.when is not None and route.when(caps)
        if wanted and route.command:
            server.command(route.method)(answering(server, route))
        elif wanted:
            server.feature(route.method, route.options)(answering(server, route))


def answering(server: MflsServer, route: Route) -> Callable[..., Any]:
    """`route.handler` bound to `server` (to a snapshot of its state, for a READ route),
    under the failure policy (`answered`) and, for a route with `course`, behind the
    course gate (module notes)."""
    handler = bound(server, route)
    notification = not route.command and is_notification(route.method)
    if inspect.iscoroutinefunction(handler):

        async def run_async(params: Any = None) -> Any:
            try:
                if route.course is not None and not await _course_ready(server, route, params):
                    return _late(route, params)
                return await handler(params)
            except Exception as error:
                return failed(route.method, error, notification)

        return run_async

    def run(params: Any = None) -> Any:
        try:
            return handler(params)
        except Exception as error:
            return failed(route.method, error, notification)

    if route.course is None and not route.command:
        return run
    if route.course is None:
        return lambda *arguments: run(list(arguments))

    def gated(*arguments: Any) -> Generator[Any, Any, Any]:
        params = list(arguments) if route.command else (arguments or (None,))[0]
        if not (yield from _gate(server, route, params)):
            return _late(route, params)
        return run(params)

    return gated


def bound(server: MflsServer, route: Route) -> Callable[[Any], Any]:
    """`route.handler` as a function of the params: a READ handler gets a snapshot of the
    server's state taken at the call, a DISK handler that and the server's files (and
    runs on the worker: a coroutine, unless the server is inline), a MUTATE handler its
    state and the server as its plumbing."""
    handler = route.handler
    if route.mode is Mode.MUTATE:
        plumbing: Plumbing = server
        return functools.partial(handler, server.state, plumbing)
    if inspect.iscoroutinefunction(handler):
        raise TypeError(f"{route.method}: a {route.mode.name} handler is a plain function")
    state = server.state
    if route.mode is Mode.READ:

        def read(params: Any) -> Any:
            return handler(state.snapshot(), params)

        return read
    files = server.files
    if server.worker.inline:

        def on_disk(params: Any) -> Any:
            answer, later = server.applied(handler(state.snapshot(), files, params))
            for message in later:
                server.worker.after_answer(server.show_message, message.kind, message.text)
            return answer

        return on_disk

    async def on_worker(params: Any) -> Any:
        snap = state.snapshot(shared_indexes=False)
        result = await server.on_worker(functools.partial(handler, snap, files, params))
        changed = [u for u, buffer in snap.buffers.items() if state.buffers.get(u) is not buffer]
        bare = result.answer if isinstance(result, Outcome) else result
        if changed and bare is not None and not isinstance(bare, Refusal):
            return Refusal(f"{changed[0]} changed while the answer was computed", stale=True)
        answer, later = server.applied(result)
        task = asyncio.current_task()
        for message in later:
            if task is None:
                server.show_message(message.kind, message.text)
            else:  # the task's answer is sent by a done callback added before this one
                task.add_done_callback(functools.partial(_show, server, message.kind, message.text))
        return answer

    return on_worker


def _show(server: MflsServer, kind: t.MessageType, text: str, task: Any) -> None:
    server.show_message(kind, text)


def _gate(server: MflsServer, route: Route, params: Any) -> Generator[Any, Any, bool]:
    """True at once when the course `route` needs is ready; else a pygls generator step
    that waits for it (`CourseGate.wait`), False when the bound passed first."""
    assert route.course is not None
    uri = route.course(params)
    gate = server.gate

    def ready() -> bool:
        return gate.ready(server.courses.snapshot, uri)

    if ready():
        return True
    if uri is not None:
        server.courses.prefer(uri)
    log.debug("%s waits for the course of %s", route.method, uri or "every document")
    waited = yield gate.wait, (ready,), None
    return bool(waited)


async def _course_ready(server: MflsServer, route: Route, params: Any) -> bool:
    """`_gate` for a coroutine handler."""
    assert route.course is not None
    uri = route.course(params)
    gate = server.gate

    def ready() -> bool:
        return gate.ready(server.courses.snapshot, uri)

    if uri is not None and not ready():
        server.courses.prefer(uri)
    return await gate.wait(ready)


def _late(route: Route, params: Any) -> Any:
    log.info(
        "%s: the course is not indexed after %.0f s; answered without computing",
        route.method,
        course_gate.WAIT_BOUND,
    )
    return (route.late or route.empty)(params)
