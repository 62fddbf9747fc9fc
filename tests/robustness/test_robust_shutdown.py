"""Shutdown: `shutdown` then `exit` ends the process cleanly; closing stdin ends it too."""

from __future__ import annotations

import asyncio

from robust_session import PROBE, verify

from tests.kit.lsp_client import RawServer

URI = "file:///robustness/shutdown.md"
TEXT = "?[{{ q }} A | B]\n\n" + PROBE + "\n"
WITHIN = 10.0


async def started() -> RawServer:
    server = await RawServer.start()
    await server.initialize()
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": URI, "languageId": "markdown", "version": 1, "text": TEXT}},
    )
    await verify(server, URI, TEXT)
    return server


async def test_shutdown_then_exit_ends_the_process_with_status_0() -> None:
    server = await started()
    answer = await server.request("shutdown", None)
    assert answer.get("result", "missing") is None and "error" not in answer
    server.notify("exit", None)
    assert await asyncio.wait_for(server.process.wait(), WITHIN) == 0
    await server.close()


async def test_exit_without_shutdown_ends_the_process() -> None:
    server = await started()
    server.notify("exit", None)
    await asyncio.wait_for(server.process.wait(), WITHIN)
    await server.close()


async def test_closing_stdin_ends_the_process_without_an_exit_notification() -> None:
    server = await started()
    assert server.process.stdin is not None
    server.process.stdin.close()
    await asyncio.wait_for(server.process.wait(), WITHIN)
    await server.close()


async def test_closing_stdin_during_indexing_and_requests_ends_the_process() -> None:
    server = await started()
    for k in range(50):
        server.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": URI, "version": k + 2},
                "contentChanges": [{"text": TEXT * (k + 1)}],
            },
        )
        server.send(
            {
                "jsonrpc": "2.0",
                "id": 1000 + k,
                "method": "textDocument/semanticTokens/full",
                "params": {"textDocument": {"uri": URI}},
            }
        )
    assert server.process.stdin is not None
    server.process.stdin.close()
    await asyncio.wait_for(server.process.wait(), WITHIN)
    await server.close()


async def test_requests_after_shutdown_are_answered_with_invalid_request() -> None:
    """LSP: after `shutdown`, requests error with InvalidRequest (-32600), never hang."""
    server = await started()
    await server.request("shutdown", None)
    msg_id = next(server.ids)
    server.send(
        {
            "jsonrpc": "2.0",
            "id": msg_id,
            "method": "textDocument/hover",
            "params": {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 4}},
        }
    )
    answer = await server.response(msg_id, WITHIN)
    assert answer.get("error", {}).get("code") == -32600, answer
    server.notify("exit", None)
    assert await asyncio.wait_for(server.process.wait(), WITHIN) == 0
    await server.close()
