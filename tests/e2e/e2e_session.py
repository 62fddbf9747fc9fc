"""Helpers for driving a real `python -m mfls` process with a pytest-lsp client."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import os
import sys
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from mfls.workspace.uris import path_to_uri

SERVER = [sys.executable, "-m", "mfls"]
TIMEOUT = 20.0


def uri_of(path: Path) -> str:
    return path_to_uri(str(path))


def write_files(root: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8"))


def capabilities(
    client: str,
    *,
    pull: bool | None = None,
    refresh: bool = False,
    encodings: list[str] | None = None,
) -> t.ClientCapabilities:
    """Captured capabilities of a real client, optionally adjusted."""
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
    return caps


class Session:
    """A started client, plus what the server asked of it."""

    def __init__(self, client: LanguageClient) -> None:
        self.client = client
        self.registrations: list[t.Registration] = []
        self.result: t.InitializeResult | None = None
        self.versions: dict[str, int] = {}
        self.published: list[t.PublishDiagnosticsParams] = []
        self.lens_refreshes = 0  # workspace/codeLens/refresh requests received

    @property
    def encoding(self) -> str:
        assert self.result is not None
        return str(self.result.capabilities.position_encoding or "utf-16")

    def open(self, path: Path, text: str | None = None, language: str = "markdown") -> str:
        uri = uri_of(path)
        if text is None:
            text = path.read_bytes().decode("utf-8")
        self.versions[uri] = 1
        self.client.text_document_did_open(
            t.DidOpenTextDocumentParams(
                text_document=t.TextDocumentItem(
                    uri=uri, language_id=language, version=1, text=text
                )
            )
        )
        return uri

    def change(self, uri: str, changes: Sequence[t.TextDocumentContentChangeEvent]) -> int:
        version = self.versions[uri] = self.versions[uri] + 1
        self.client.text_document_did_change(
            t.DidChangeTextDocumentParams(
                text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=list(changes),
            )
        )
        return version

    def close(self, uri: str) -> None:
        self.client.text_document_did_close(
            t.DidCloseTextDocumentParams(text_document=t.TextDocumentIdentifier(uri=uri))
        )

    def indexing_ends(self) -> int:
        return sum(
            1
            for reports in self.client.progress_reports.values()
            for value in reports
            if isinstance(value, t.WorkDoneProgressEnd)
        )

    async def indexed(self, count: int = 1) -> None:
        await wait_until(lambda: self.indexing_ends() >= count)

    async def pull(self, uri: str, previous: str | None = None) -> Any:
        return await self.client.text_document_diagnostic_async(
            t.DocumentDiagnosticParams(
                text_document=t.TextDocumentIdentifier(uri=uri), previous_result_id=previous
            )
        )

    async def pushed(
        self, uri: str, check: Callable[[list[t.Diagnostic]], bool]
    ) -> list[t.Diagnostic]:
        await wait_until(
            lambda: uri in self.client.diagnostics and check(list(self.client.diagnostics[uri]))
        )
        return list(self.client.diagnostics[uri])


async def wait_until(condition: Callable[[], bool], timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the server")
        await asyncio.sleep(0.02)


@contextlib.asynccontextmanager
async def session(
    caps: t.ClientCapabilities,
    folders: Sequence[Path] = (),
    *,
    initialization_options: Any = None,
    configuration: dict[str, Any] | None = None,
    locale: str | None = None,
    server_env: dict[str, str] | None = None,
) -> AsyncIterator[Session]:
    """`server_env`: variables added to the server's environment (test hooks)."""
    env = None if server_env is None else {**os.environ, **server_env}
    client = await ClientServerConfig(server_command=SERVER, server_env=env).start()
    assert isinstance(client, LanguageClient)
    started = Session(client)

    @client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register(params: t.RegistrationParams) -> None:
        started.registrations.extend(params.registrations)

    @client.feature(t.WORKSPACE_CODE_LENS_REFRESH)
    def refresh_lenses(params: None) -> None:
        started.lens_refreshes += 1

    @client.feature(t.CLIENT_UNREGISTER_CAPABILITY)
    def unregister(params: t.UnregistrationParams) -> None:
        gone = {u.id for u in params.unregisterations}
        started.registrations[:] = [r for r in started.registrations if r.id not in gone]

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
        yield started
    finally:
        try:
            await asyncio.wait_for(client.shutdown_session(), TIMEOUT)
        finally:
            await client.stop()
