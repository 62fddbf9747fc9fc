"""`SteppedLoop`, the event loop a host without blocking waits (Pyodide in a Web Worker)
gives `SyncServer`: the same session as on CPython's loop, its clock moved by `advance`
rather than by waiting, and runnable inside another running loop."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from test_lsp_sync import ON_TOPC, ON_TOPIC, Client, opened, vscode, write_course

from mfls.lsp import playground
from mfls.lsp.stepped_loop import SteppedLoop
from mfls.lsp.sync import SyncServer
from mfls.workspace.uris import path_to_uri

PYODIDE = sys.platform == "emscripten"
# Why a loop from `asyncio.new_event_loop()` cannot run inside a running one.
REFUSED = "stack switching" if PYODIDE else "another loop is running"


def start(root: Path) -> tuple[Client, str]:
    uri = write_course(root)
    client = Client(SyncServer(loop=SteppedLoop()))
    folders = [{"uri": path_to_uri(str(root)), "name": "course"}]
    client.call("initialize", {"capabilities": vscode(pull=False), "workspaceFolders": folders})
    client.notify("initialized", {})
    return client, uri


def published(client: Client) -> dict[str, tuple[int, list[str]]]:
    return {
        m["params"]["uri"].rsplit("/", 1)[-1]: (
            m["params"]["version"],
            [d["code"] for d in m["params"]["diagnostics"]],
        )
        for m in client.received
        if m.get("method") == "textDocument/publishDiagnostics"
    }


def test_the_debounce_runs_on_the_loop_clock_without_waiting(tmp_path: Path) -> None:
    client, uri = start(tmp_path)
    client.received.clear()
    opened(client, uri)
    assert published(client) == {}
    delay = client.server.next_timer()
    assert delay is not None and 0 < delay <= 0.15
    begun = client.server._loop.time()
    client.take(client.server.advance(delay / 2))
    assert published(client) == {}  # half the debounce: nothing yet
    client.take(client.server.advance(delay / 2))
    assert published(client)["01.md"] == (1, ["near-miss"])
    assert client.server._loop.time() == pytest.approx(begun + delay)
    wall = time.monotonic()
    client.take(client.server.advance(3600.0))  # an hour of the loop's time, at once
    assert time.monotonic() - wall < 5
    assert client.server.next_timer() is None


def test_requests_are_answered_as_on_the_default_loop(tmp_path: Path) -> None:
    client, uri = start(tmp_path)
    opened(client, uri)
    at = {"textDocument": {"uri": uri}, "position": ON_TOPIC}
    hover = client.call("textDocument/hover", at)
    assert "Read 2 times in 2 documents of Demo." in hover["contents"]["value"]
    rename = client.call("textDocument/rename", {**at, "newName": "subject"})
    changed = {
        change["textDocument"]["uri"].rsplit("/", 1)[-1]: len(change["edits"])
        for change in rename["documentChanges"]
    }
    assert changed == {"01.md": 2, "02.md": 1}
    fixes = client.call(
        "textDocument/codeAction",
        {
            "textDocument": {"uri": uri},
            "range": {"start": ON_TOPC, "end": ON_TOPC},
            "context": {"diagnostics": []},
        },
    )
    assert any("topic" in action["title"] for action in fixes)


def test_it_runs_inside_another_running_loop(tmp_path: Path) -> None:
    """Pyodide's WebLoop counts as running during every call from JavaScript, and the
    loop `asyncio` would make cannot run inside a running one (CPython's refuses, Pyodide's
    cannot block without WebAssembly stack switching); the stepped loop runs and restores
    it. On CPython the host is `asyncio.run`."""

    def session() -> str:
        outer = asyncio.get_running_loop()
        client, uri = start(tmp_path)
        opened(client, uri)
        client.take(client.server.advance(0.2))
        assert asyncio.get_running_loop() is outer
        default, nap = asyncio.new_event_loop(), asyncio.sleep(0)
        with pytest.raises(RuntimeError, match=REFUSED):
            default.run_until_complete(nap)
        nap.close()
        default.close()
        return str(published(client)["01.md"][1][0])

    async def host() -> str:
        return session()

    code = session() if PYODIDE else asyncio.run(host())
    assert code == "near-miss"


def test_a_wait_with_nothing_to_wait_for_is_an_error() -> None:
    loop = SteppedLoop()
    never: asyncio.Future[None] = loop.create_future()
    with pytest.raises(RuntimeError, match="wait forever"):
        loop.run_until_complete(never)
    loop.close()


# What the playground's page sends: @codemirror/lsp-client 6.3.0's `clientCapabilities`
# with the page's extensions merged in, less `textDocument.diagnostic`, which the page's
# transport withholds (the client declares pull diagnostics but never pulls).
CODEMIRROR_CLIENT: dict[str, Any] = playground.PAGE_CAPABILITIES


def test_a_codemirror_client_is_asked_nothing_and_gets_pushed_diagnostics(
    tmp_path: Path,
) -> None:
    """lsp-client answers every server request "method not implemented": with its
    capabilities mfls sends none, and pushes diagnostics (plain `changes` in edits)."""
    uri = write_course(tmp_path)
    client = Client(SyncServer(loop=SteppedLoop()), answer_requests=False)
    result = client.call(
        "initialize",
        {
            "processId": None,
            "clientInfo": {"name": "@codemirror/lsp-client"},
            "rootUri": path_to_uri(str(tmp_path)),
            "capabilities": CODEMIRROR_CLIENT,
            "initializationOptions": {"mfls": {"diagnosticDelay": 50}},
        },
    )
    assert "diagnosticProvider" not in result["capabilities"]
    client.notify("initialized", {})
    opened(client, uri)
    client.take(client.server.advance(0.05))
    assert client.asked == []
    assert published(client)["01.md"] == (1, ["near-miss"])
    at = {"textDocument": {"uri": uri}, "position": ON_TOPIC}
    rename = client.call("textDocument/rename", {**at, "newName": "subject"})
    assert sorted(u.rsplit("/", 1)[-1] for u in rename["changes"]) == ["01.md", "02.md"]
    assert client.asked == []


def test_with_the_pull_capability_it_declares_mfls_would_wait_to_be_pulled(
    tmp_path: Path,
) -> None:
    """Why the playground's transport withholds `textDocument.diagnostic`."""
    write_course(tmp_path)
    client = Client(SyncServer(loop=SteppedLoop()), answer_requests=False)
    caps = {**CODEMIRROR_CLIENT, "textDocument": {**CODEMIRROR_CLIENT["textDocument"]}}
    caps["textDocument"]["diagnostic"] = {}
    result = client.call(
        "initialize", {"rootUri": path_to_uri(str(tmp_path)), "capabilities": caps}
    )
    assert "diagnosticProvider" in result["capabilities"]
