"""Driving a real `python -m mfls` process, and checking it holds exactly the final text.

Two clients: pytest-lsp's `LanguageClient` (`lsp_session`), and `RawServer`, which writes
JSON-RPC bytes to the pipe itself for what pytest-lsp cannot express (lone surrogates,
broken JSON). Both answer the three questions `Probe` asks; `verify` compares the answers
with what `scan(final_text)` and a fresh in-process workspace say.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import json
import re
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from mfls.features import diagnostics as diagnostics_feature
from mfls.features.semantic_tokens import document_tokens
from mfls.syntax.scanner import scan
from mfls.workspace.hosts import HostProfile
from mfls.workspace.index import WorkspaceSnapshot
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace

SERVER = [sys.executable, "-m", "mfls"]
TIMEOUT = 30.0
PROBE_KEY = "probe"
PROBE = "{{ " + PROBE_KEY + " }}"

_LINE_END = re.compile(r"\r\n|\r|\n")


def uri_of(path: Path) -> str:
    return path_to_uri(str(path))


# ----- positions, computed here independently of the server's own code ---------------


def line_starts(text: str) -> list[int]:
    return [0, *(m.end() for m in _LINE_END.finditer(text))]


def utf16_len(text: str) -> int:
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def position(text: str, starts: list[int], offset: int) -> tuple[int, int]:
    line = max(k for k, s in enumerate(starts) if s <= offset) if offset else 0
    return line, utf16_len(text[starts[line] : offset])


def line_content_end(text: str, starts: list[int], line: int) -> int:
    if line + 1 < len(starts):
        end = starts[line + 1]
        return end - 2 if text[end - 2 : end] == "\r\n" else end - 1
    return len(text)


Span = tuple[int, int, int, int]  # (start line, start char, end line, end char)
Token = tuple[int, int, int, int, int]  # (line, char, length, type, modifiers)


def span(text: str, starts: list[int], start: int, end: int) -> Span:
    return (*position(text, starts, start), *position(text, starts, end))


def expected_tokens(text: str, host: HostProfile | None = None) -> list[Token]:
    """Semantic tokens of `scan(text)`, split at line ends, in absolute UTF-16 positions."""
    starts = line_starts(text)
    found: list[Token] = []
    pieces = document_tokens(scan(text), None if host is None else host.provides)
    for token in sorted(pieces, key=lambda x: (x.start, x.start + x.length)):
        end = token.start + token.length
        first = position(text, starts, token.start)[0]
        last = position(text, starts, end)[0]
        for line in range(first, last + 1):
            a = max(token.start, starts[line])
            b = min(end, line_content_end(text, starts, line))
            if b <= a:
                continue
            char = utf16_len(text[starts[line] : a])
            found.append((line, char, utf16_len(text[a:b]), token.type, token.modifiers))
    return found


def decode_tokens(data: Sequence[int]) -> list[Token]:
    found: list[Token] = []
    line = char = 0
    for k in range(0, len(data), 5):
        dl, dc, length, kind, mods = data[k : k + 5]
        line += dl
        char = char + dc if dl == 0 else dc
        found.append((line, char, length, kind, mods))
    return found


def fresh_snapshot(uri: str, text: str, folders: Sequence[Path] = ()) -> WorkspaceSnapshot:
    """The snapshot of a freshly started workspace with `text` opened at `uri`."""
    workspace = Workspace()
    if folders:
        workspace.set_folders([str(f) for f in folders])
        workspace.index_all()
    workspace.open(uri, text, 1)
    return workspace.snapshot


def expected_diagnostics(
    uri: str, text: str, folders: Sequence[Path] = ()
) -> list[tuple[str, Span]]:
    """Diagnostics a freshly started workspace gives `text` opened at `uri`."""
    starts = line_starts(text)
    found = diagnostics_feature.document_diagnostics(fresh_snapshot(uri, text, folders), uri)
    return sorted((d.code, span(text, starts, d.start, d.end)) for d in found)


# ----- the two clients ---------------------------------------------------------------


class Probe(Protocol):
    def alive(self) -> bool: ...

    async def tokens(self, uri: str) -> list[int]: ...

    async def hover(self, uri: str, line: int, character: int) -> tuple[str, Span] | None: ...

    async def diagnostics(self, uri: str) -> list[tuple[str, Span]]: ...


async def verify(
    probe: Probe, uri: str, text: str, folders: Sequence[Path] = (), *, check_hover: bool = True
) -> None:
    """The server is up, hovers the probe marker, and holds exactly `text` for `uri`."""
    assert probe.alive(), "the server process has exited"
    starts = line_starts(text)
    if check_hover:
        at = text.rindex(PROBE) + PROBE.index(PROBE_KEY)
        line, char = position(text, starts, at)
        answer = await probe.hover(uri, line, char)
        assert answer is not None, "no hover on the probe marker"
        markdown, where = answer
        assert PROBE_KEY in markdown
        marker_start = text.rindex(PROBE)
        assert where == span(text, starts, marker_start, marker_start + len(PROBE))
    entry = fresh_snapshot(uri, text, folders).entry(uri)
    host = entry[0].host if entry is not None else None
    got = decode_tokens(await probe.tokens(uri))
    assert got == expected_tokens(text, host), "semantic tokens differ from scan(final text)"
    assert await probe.diagnostics(uri) == expected_diagnostics(uri, text, folders)
    assert probe.alive(), "the server process has exited"


def _span_of(r: t.Range) -> Span:
    return (r.start.line, r.start.character, r.end.line, r.end.character)


def pull_capabilities() -> t.ClientCapabilities:
    """VS Code's captured capabilities, pulling diagnostics."""
    caps = copy.deepcopy(client_capabilities("visual-studio-code"))
    caps.text_document = caps.text_document or t.TextDocumentClientCapabilities()
    caps.text_document.diagnostic = t.DiagnosticClientCapabilities(related_document_support=True)
    return caps


def _capability_pulls(caps: t.ClientCapabilities) -> bool:
    return caps.text_document is not None and caps.text_document.diagnostic is not None


def push_capabilities() -> t.ClientCapabilities:
    caps = copy.deepcopy(client_capabilities("visual-studio-code"))
    if caps.text_document is not None:
        caps.text_document.diagnostic = None
    return caps


@dataclass
class LspSession:
    client: LanguageClient
    versions: dict[str, int] = field(default_factory=dict)
    published: list[t.PublishDiagnosticsParams] = field(default_factory=list)
    messages: list[t.ShowMessageParams] = field(default_factory=list)
    pull: bool = True

    async def settled_pushes(self, uri: str, quiet: float = 0.6) -> list[tuple[str, Span]]:
        """The last diagnostics pushed for `uri`, once no publish came for `quiet` s."""
        seen = -1
        while seen != len(self.published):
            seen = len(self.published)
            await asyncio.sleep(quiet)
        pushed = self.client.diagnostics.get(uri, [])
        return sorted((str(d.code), _span_of(d.range)) for d in pushed)

    def alive(self) -> bool:
        server = self.client._server  # the subprocess pytest-lsp started
        return server is not None and server.returncode is None

    @property
    def pid(self) -> int:
        return int(self.client._server.pid)  # type: ignore[union-attr]

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.versions[uri] = version
        self.client.text_document_did_open(
            t.DidOpenTextDocumentParams(
                text_document=t.TextDocumentItem(
                    uri=uri, language_id="markdown", version=version, text=text
                )
            )
        )

    def change(
        self,
        uri: str,
        changes: Sequence[t.TextDocumentContentChangeEvent],
        version: int | None = None,
    ) -> None:
        if version is None:
            version = self.versions.get(uri, 0) + 1
        self.versions[uri] = version
        self.client.text_document_did_change(
            t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=list(changes),
            )
        )

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
        return markdown, _span_of(result.range)

    async def diagnostics(self, uri: str) -> list[tuple[str, Span]]:
        if not self.pull:
            return await self.settled_pushes(uri)
        report = await self.client.text_document_diagnostic_async(
            t.DocumentDiagnosticParams(text_document=t.TextDocumentIdentifier(uri=uri))
        )
        return sorted((str(d.code), _span_of(d.range)) for d in report.items)


async def wait_until(condition: Callable[[], bool], timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the server")
        await asyncio.sleep(0.02)


@contextlib.asynccontextmanager
async def lsp_session(
    folders: Sequence[Path] = (),
    *,
    caps: t.ClientCapabilities | None = None,
    initialization_options: Any = None,
    server_command: Sequence[str] = SERVER,
    server_env: dict[str, str] | None = None,
) -> AsyncIterator[LspSession]:
    config = ClientServerConfig(server_command=list(server_command), server_env=server_env)
    client = await config.start()
    assert isinstance(client, LanguageClient)
    caps = caps or pull_capabilities()
    started = LspSession(client, pull=_capability_pulls(caps))

    @client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register(params: t.RegistrationParams) -> None:
        return None

    # The server re-registers its file watchers once it knows the courses' globs.
    @client.feature(t.CLIENT_UNREGISTER_CAPABILITY)
    def unregister(params: t.UnregistrationParams) -> None:
        return None

    client.protocol.fm._features.pop(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, None)

    @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(params: t.PublishDiagnosticsParams) -> None:
        started.published.append(params)
        client.diagnostics[params.uri] = params.diagnostics

    client.protocol.fm._features.pop(t.WINDOW_SHOW_MESSAGE, None)

    @client.feature(t.WINDOW_SHOW_MESSAGE)
    def show(params: t.ShowMessageParams) -> None:
        started.messages.append(params)

    try:
        await client.initialize_session(
            t.InitializeParams(
                capabilities=caps,
                workspace_folders=[
                    t.WorkspaceFolder(uri=uri_of(folder), name=folder.name) for folder in folders
                ],
                root_uri=uri_of(folders[0]) if folders else None,
                initialization_options=initialization_options,
            )
        )
        yield started
    finally:
        try:
            if started.alive():
                await asyncio.wait_for(client.shutdown_session(), TIMEOUT)
        finally:
            await client.stop()


def indexing_ended(session: LspSession, count: int = 1) -> Callable[[], bool]:
    def ended() -> bool:
        return (
            sum(
                1
                for reports in session.client.progress_reports.values()
                for value in reports
                if isinstance(value, t.WorkDoneProgressEnd)
            )
            >= count
        )

    return ended


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
    async def start(cls, command: Sequence[str] = SERVER) -> RawServer:
        process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
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

        capabilities = get_converter().unstructure(caps or pull_capabilities())
        answer = await self.request(
            "initialize", {"processId": None, "rootUri": None, "capabilities": capabilities}
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
        r = found["range"]
        where = (
            r["start"]["line"],
            r["start"]["character"],
            r["end"]["line"],
            r["end"]["character"],
        )
        return found["contents"]["value"], where

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


async def each(items: Sequence[Awaitable[Any]]) -> list[Any]:
    return list(await asyncio.gather(*items))
