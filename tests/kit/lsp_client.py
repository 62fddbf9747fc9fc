"""The one client of a real `python -m mfls` process, for the tests where a process is
needed (end to end, robustness, rename on disk, benchmarks).

Two ways to speak to it: `session` starts pytest-lsp's `LanguageClient` and returns a
`Session` (the client, what the server asked of it, every publish and message, the texts
it opened); `RawServer` writes JSON-RPC bytes to the pipe itself, for what pytest-lsp
cannot express (lone surrogates, broken JSON, a request of the wrong shape).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import json
import os
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from mfls.workspace.uris import path_to_uri
from tests.kit.waiting import wait_until

SERVER = [sys.executable, "-m", "mfls"]
TIMEOUT = 30.0

Span = tuple[int, int, int, int]  # (start line, start char, end line, end char)


def uri_of(path: Path) -> str:
    return path_to_uri(str(path))


def capabilities(
    client: str = "visual-studio-code",
    *,
    pull: bool | None = None,
    refresh: bool = False,
    encodings: list[str] | None = None,
    snippets: bool = False,
) -> t.ClientCapabilities:
    """Captured capabilities of a real client (pytest-lsp's), optionally adjusted:
    pulling diagnostics or not, asking for refreshes, its position encodings, snippet
    edits in a workspace edit."""
    caps = copy.deepcopy(client_capabilities(client))
    if pull is True:
        caps.text_document = caps.text_document or t.TextDocumentClientCapabilities()
        caps.text_document.diagnostic = t.DiagnosticClientCapabilities(
            related_document_support=True
        )
    elif pull is False and caps.text_document is not None:
        caps.text_document.diagnostic = None
    if refresh:
        caps.workspace = caps.workspace or t.WorkspaceClientCapabilities()
        caps.workspace.diagnostics = t.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    if encodings is not None:
        caps.general = caps.general or t.GeneralClientCapabilities()
        caps.general.position_encodings = encodings
    if snippets:
        assert caps.workspace is not None and caps.workspace.workspace_edit is not None
        caps.workspace.workspace_edit.snippet_edit_support = True
    return caps


def pull_capabilities() -> t.ClientCapabilities:
    """VS Code's captured capabilities, pulling diagnostics."""
    return capabilities("visual-studio-code", pull=True)


def push_capabilities() -> t.ClientCapabilities:
    """VS Code's captured capabilities, diagnostics pushed."""
    return capabilities("visual-studio-code", pull=False)


def span_of(r: t.Range) -> Span:
    return (r.start.line, r.start.character, r.end.line, r.end.character)


class Session:
    """A started client, plus what the server asked of it and told it."""

    def __init__(self, client: LanguageClient, *, pull: bool = True) -> None:
        self.client = client
        self.pull = pull
        self.registrations: list[t.Registration] = []
        self.result: t.InitializeResult | None = None
        self.versions: dict[str, int] = {}
        self.texts: dict[str, str] = {}
        self.published: list[t.PublishDiagnosticsParams] = []
        self.lens_refreshes = 0  # workspace/codeLens/refresh requests received

    @property
    def messages(self) -> list[t.ShowMessageParams]:
        """Every window/showMessage the server sent (pytest-lsp keeps them)."""
        return self.client.messages

    @property
    def encoding(self) -> str:
        assert self.result is not None
        return str(self.result.capabilities.position_encoding or "utf-16")

    def alive(self) -> bool:
        server = self.client._server  # the subprocess pytest-lsp started
        return server is not None and server.returncode is None

    @property
    def pid(self) -> int:
        return int(self.client._server.pid)  # type: ignore[union-attr]

    def open(
        self,
        document: Path | str,
        text: str | None = None,
        version: int = 1,
        language: str = "markdown",
    ) -> str:
        """didOpen of a file (`text` read from it when not given) or of a URI; the URI."""
        uri = uri_of(document) if isinstance(document, Path) else document
        if text is None:
            assert isinstance(document, Path), "a URI is opened with its text"
            text = document.read_bytes().decode("utf-8")
        self.versions[uri] = version
        self.texts[uri] = text
        self.client.text_document_did_open(
            t.DidOpenTextDocumentParams(
                text_document=t.TextDocumentItem(
                    uri=uri, language_id=language, version=version, text=text
                )
            )
        )
        return uri

    def change(
        self,
        uri: str,
        changes: Sequence[t.TextDocumentContentChangeEvent],
        version: int | None = None,
    ) -> int:
        """didChange with the next version (or `version`); the version sent."""
        if version is None:
            version = self.versions.get(uri, 0) + 1
        self.versions[uri] = version
        self.client.text_document_did_change(
            t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=list(changes),
            )
        )
        return version

    def close(self, uri: str) -> None:
        self.texts.pop(uri, None)
        self.client.text_document_did_close(
            t.DidCloseTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=uri))
        )

    def indexing_ends(self) -> int:
        """How many work-done progresses (the server's indexing) have ended."""
        return sum(
            1
            for reports in self.client.progress_reports.values()
            for value in reports
            if isinstance(value, t.WorkDoneProgressEnd)
        )

    async def indexed(self, count: int = 1) -> None:
        await wait_until(lambda: self.indexing_ends() >= count, TIMEOUT)

    async def pulled(self, uri: str, previous: str | None = None) -> Any:
        """The server's answer to textDocument/diagnostic."""
        return await self.client.text_document_diagnostic_async(
            t.DocumentDiagnosticParams(
                text_document=t.TextDocumentIdentifier(uri=uri), previous_result_id=previous
            )
        )

    async def pushed(
        self, uri: str, check: Callable[[list[t.Diagnostic]], bool]
    ) -> list[t.Diagnostic]:
        """The diagnostics pushed for `uri` once `check` accepts them."""
        await wait_until(
            lambda: uri in self.client.diagnostics and check(list(self.client.diagnostics[uri])),
            TIMEOUT,
        )
        return list(self.client.diagnostics[uri])

    async def settled_pushes(self, uri: str, quiet: float = 0.6) -> list[tuple[str, Span]]:
        """The last diagnostics pushed for `uri`, once no publish came for `quiet` s."""
        seen = -1
        while seen != len(self.published):
            seen = len(self.published)
            await asyncio.sleep(quiet)
        pushed = self.client.diagnostics.get(uri, [])
        return sorted((str(d.code), span_of(d.range)) for d in pushed)

    async def tokens(self, uri: str) -> list[int]:
        result = await self.client.text_document_semantic_tokens_full_async(
            t.SemanticTokensParams(text_document=t.TextDocumentIdentifier(uri=uri))
        )
        return [] if result is None else list(result.data)

    async def hover(self, uri: str, line: int, character: int) -> tuple[str, Span] | None:
        result = await self.client.text_document_hover_async(
            t.HoverParams(
                text_document=t.TextDocumentIdentifier(uri=uri),
                position=t.Position(line=line, character=character),
            )
        )
        if result is None or result.range is None:
            return None
        contents = result.contents
        markdown = contents.value if isinstance(contents, t.MarkupContent) else str(contents)
        return markdown, span_of(result.range)

    async def diagnostics(self, uri: str) -> list[tuple[str, Span]]:
        """(code, span) of the document's diagnostics: pulled, or the settled pushes."""
        if not self.pull:
            return await self.settled_pushes(uri)
        report = await self.pulled(uri)
        return sorted((str(d.code), span_of(d.range)) for d in report.items)


def _pulls(caps: t.ClientCapabilities) -> bool:
    return caps.text_document is not None and caps.text_document.diagnostic is not None


@contextlib.asynccontextmanager
async def session(
    caps: t.ClientCapabilities | None = None,
    folders: Sequence[Path] = (),
    *,
    initialization_options: Any = None,
    configuration: dict[str, Any] | None = None,
    locale: str | None = None,
    server_env: dict[str, str] | None = None,
    server_command: Sequence[str] = SERVER,
    indexed: bool = False,
) -> AsyncIterator[Session]:
    """A started, initialized server (`caps` VS Code's, pulling, by default).

    `server_env`: variables added to the server's environment (test hooks); `indexed`:
    wait for the first indexing of the folders to end before returning."""
    caps = caps or pull_capabilities()
    env = None if server_env is None else {**os.environ, **server_env}
    config = ClientServerConfig(server_command=list(server_command), server_env=env)
    client = await config.start()
    assert isinstance(client, LanguageClient)
    started = Session(client, pull=_pulls(caps))

    @client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register(params: t.RegistrationParams) -> None:
        started.registrations.extend(params.registrations)

    # The server re-registers its file watchers once it knows the courses' globs.
    @client.feature(t.CLIENT_UNREGISTER_CAPABILITY)
    def unregister(params: t.UnregistrationParams) -> None:
        gone = {u.id for u in params.unregisterations}
        started.registrations[:] = [r for r in started.registrations if r.id not in gone]

    @client.feature(t.WORKSPACE_CODE_LENS_REFRESH)
    def refresh_lenses(params: None) -> None:
        started.lens_refreshes += 1

    # Replace pytest-lsp's own handler to keep every publish, not only the last per URI.
    client.protocol.fm._features.pop(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, None)

    @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(params: t.PublishDiagnosticsParams) -> None:
        started.published.append(params)
        client.diagnostics[params.uri] = params.diagnostics

    if configuration is not None:
        client.set_configuration(configuration)
    try:
        started.result = await client.initialize_session(
            t.InitializeParams(
                capabilities=caps,
                workspace_folders=[
                    t.WorkspaceFolder(uri=uri_of(folder), name=folder.name) for folder in folders
                ],
                root_uri=uri_of(folders[0]) if folders else None,
                initialization_options=initialization_options,
                locale=locale,
            )
        )
        if indexed:
            await started.indexed()
        yield started
    finally:
        try:
            if started.alive():
                await asyncio.wait_for(client.shutdown_session(), TIMEOUT)
        finally:
            await client.stop()


def indexing_ended(started: Session, count: int = 1) -> Callable[[], bool]:
    """A condition: `count` indexings of `started`'s server have ended."""
    return lambda: started.indexing_ends() >= count


# ----- raw JSON-RPC over the pipe ------------------------------------------------------


def _raw_span(r: dict[str, Any]) -> Span:
    return (r["start"]["line"], r["start"]["character"], r["end"]["line"], r["end"]["character"])


class RawServer:
    """The server process, spoken to in bytes. Answers the server's own requests with
    null (one null per item for `workspace/configuration`)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.ids = itertools.count(1)
        self.responses: dict[Any, dict[str, Any]] = {}
        self.notifications: list[dict[str, Any]] = []
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(
        cls,
        command: Sequence[str] = SERVER,
        *,
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
    ) -> RawServer:
        process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            env=env,
            cwd=cwd,
        )
        return cls(process)

    def alive(self) -> bool:
        return self.process.returncode is None

    async def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                line = await stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            assert length is not None, "a message without Content-Length"
            message = json.loads(await stream.readexactly(length))
            if "method" in message and "id" in message:
                result = None
                if message["method"] == "workspace/configuration":
                    result = [None for _ in message["params"]["items"]]
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})
            elif "method" in message:
                self.notifications.append(message)
            else:
                self.responses[message.get("id")] = message

    def send_bytes(self, body: bytes) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def send(self, message: dict[str, Any]) -> None:
        self.send_bytes(json.dumps(message).encode("ascii"))

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    async def response(self, msg_id: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        await wait_until(lambda: msg_id in self.responses, timeout)
        return self.responses.pop(msg_id)

    async def request(self, method: str, params: Any) -> dict[str, Any]:
        msg_id = next(self.ids)
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return await self.response(msg_id)

    async def initialize(self, caps: t.ClientCapabilities | None = None) -> dict[str, Any]:
        from lsprotocol.converters import get_converter

        unstructured = get_converter().unstructure(caps or pull_capabilities())
        answer = await self.request(
            "initialize", {"processId": None, "rootUri": None, "capabilities": unstructured}
        )
        self.notify("initialized", {})
        return answer

    async def result(self, method: str, params: Any) -> Any:
        answer = await self.request(method, params)
        assert "error" not in answer, answer
        return answer["result"]

    async def tokens(self, uri: str) -> list[int]:
        found = await self.result(
            "textDocument/semanticTokens/full", {"textDocument": {"uri": uri}}
        )
        return [] if found is None else list(found["data"])

    async def hover(self, uri: str, line: int, character: int) -> tuple[str, Span] | None:
        found = await self.result(
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}},
        )
        if found is None:
            return None
        return found["contents"]["value"], _raw_span(found["range"])

    async def diagnostics(self, uri: str) -> list[tuple[str, Span]]:
        report = await self.result("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        return sorted((d["code"], _raw_span(d["range"])) for d in report["items"])

    async def close(self) -> int:
        """Shut down and exit politely; the exit code."""
        if self.alive():
            with contextlib.suppress(AssertionError):
                await self.request("shutdown", None)
            self.notify("exit", None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.process.wait(), TIMEOUT)
        if self.alive():
            self.process.kill()
        code = await self.process.wait()
        self._reader.cancel()
        return code


@contextlib.asynccontextmanager
async def raw_session() -> AsyncIterator[RawServer]:
    server = await RawServer.start()
    try:
        await server.initialize()
        yield server
    finally:
        await server.close()
