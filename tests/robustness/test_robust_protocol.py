"""Nonsense on the wire: every request is answered, the server stays up and keeps its text.

Spoken in raw JSON-RPC bytes, since pytest-lsp cannot send negative positions, wrong
types, lone surrogates escaped in JSON strings, or broken JSON.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from robust_session import PROBE, verify

from tests.kit.lsp_client import RawServer, raw_session

URI = "file:///robustness/protocol.md"
TEXT = "# Title\n\n?[{{ colour }} Red | Blue]\n\nUse {{ colour }} and " + PROBE + ".\n"
ANSWER_WITHIN = 5.0

MALFORMED_POSITION_PARAMS: list[Any] = [
    {"textDocument": {"uri": URI}, "position": {"line": -1, "character": -5}},
    {"textDocument": {"uri": URI}, "position": {"line": 0, "character": -1}},
    {"textDocument": {"uri": URI}, "position": {"line": 2**40, "character": 2**40}},
    {"textDocument": {"uri": URI}, "position": {"line": "a", "character": None}},
    {"textDocument": {"uri": URI}},
    {"textDocument": {}, "position": {"line": 0, "character": 0}},
    {"position": {"line": 0, "character": 0}},
    [1, 2],
    None,
    "hover",
]
POSITION_METHODS = [
    "textDocument/hover",
    "textDocument/completion",
    "textDocument/definition",
    "textDocument/references",
    "textDocument/documentHighlight",
    "textDocument/prepareRename",
]


def open_text(server: RawServer, text: str = TEXT, uri: str = URI, version: int = 1) -> None:
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "markdown", "version": version, "text": text}},
    )


async def ask(server: RawServer, method: str, params: Any) -> dict[str, Any]:
    msg_id = next(server.ids)
    server.send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
    return await server.response(msg_id, ANSWER_WITHIN)


async def test_malformed_position_params_are_answered_with_an_error() -> None:
    """JSON-RPC: a request whose params do not fit is answered -32602, never dropped."""
    async with raw_session() as server:
        open_text(server)
        for method, params in itertools.product(POSITION_METHODS, MALFORMED_POSITION_PARAMS):
            if method == "textDocument/references" and isinstance(params, dict):
                params = {**params, "context": {"includeDeclaration": True}}
            answer = await ask(server, method, params)
            assert "error" in answer, f"{method} {params!r} answered {answer}"
            assert answer["error"]["code"] in (-32602, -32600), answer
        # A fractional number is read as an integer by the converter: any answer will do.
        answer = await ask(
            server,
            "textDocument/hover",
            {"textDocument": {"uri": URI}, "position": {"line": 1.5, "character": 0.5}},
        )
        assert answer.get("id") is not None
        await verify(server, URI, TEXT)


async def test_unknown_requests_get_method_not_found_and_unknown_notifications_nothing() -> None:
    async with raw_session() as server:
        open_text(server)
        for method in ("nonsense/method", "textDocument/nonsense", "$/nonsense", ""):
            answer = await ask(server, method, {})
            if method.startswith("$/"):
                # `$/` requests may be ignored, but an answer must then be an error.
                assert "error" in answer
            else:
                assert answer["error"]["code"] == -32601, answer
        server.notify("nonsense/notification", {"a": 1})
        server.notify("$/nonsense", None)
        server.notify("textDocument/didChange", "not an object")
        server.notify("textDocument/didOpen", {"textDocument": None})
        await verify(server, URI, TEXT)


async def test_broken_json_and_bad_frames_do_not_stop_the_server() -> None:
    async with raw_session() as server:
        open_text(server)
        server.send_bytes(b"{not json")
        server.send_bytes(b"\xff\xfe\x00garbage")
        server.send_bytes(b'{"jsonrpc": "2.0", "id": 99999, "result": 1}')  # answer to nothing
        server.send_bytes(b"[]")
        server.send_bytes(b"null")
        await asyncio.sleep(0.3)
        await verify(server, URI, TEXT)


async def test_lone_surrogates_in_json_strings_are_kept_as_text() -> None:
    """`\\ud800` escaped in JSON is a lone surrogate in the document: a key like any other."""
    text = "?[{{ \ud800 }} A | B]\n\nUse {{ \ud800 }}, {{ a\udfffb }} and " + PROBE + ".\n"
    async with raw_session() as server:
        open_text(server, text)
        await verify(server, URI, text)
        line_of_second = 2
        answer = await ask(
            server,
            "textDocument/hover",
            {"textDocument": {"uri": URI}, "position": {"line": line_of_second, "character": 7}},
        )
        assert "\ud800" in answer["result"]["contents"]["value"]
        symbols = await ask(server, "workspace/symbol", {"query": "\udfff"})
        assert [s["name"] for s in symbols["result"]] == ["a\udfffb"]


async def test_a_surrogate_pair_split_by_an_edit_and_rejoined() -> None:
    text = "A {{ 🚀 }} " + PROBE + "\n"
    async with raw_session() as server:
        open_text(server, text)
        # Insert between the two UTF-16 units of 🚀 (character 6 falls inside the pair).
        server.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": URI, "version": 2},
                "contentChanges": [
                    {
                        "range": {
                            "start": {"line": 0, "character": 6},
                            "end": {"line": 0, "character": 6},
                        },
                        "text": "\udc00",
                    }
                ],
            },
        )
        await asyncio.sleep(0.1)
        # The server snaps a position inside a character to its start.
        final = "A {{ \udc00🚀 }} " + PROBE + "\n"
        await verify(server, URI, final)


async def test_documents_under_odd_uris_are_served() -> None:
    text = "?[{{ q }} A | B]\n\n" + PROBE + "\n"
    uris = [
        "untitled:Untitled-1",
        "file:///robustness/a%20b/c%3Fd.md",
        "file:///robustness/x/../dotted.md",
        "file:///robustness/%ZZ.md",
        "file://host/share/unc.md",
        "file:///" + "deep/" * 2000 + "x.md",
        "vscode-notebook-cell:/x.ipynb#W0",
        "no-scheme.md",
    ]
    async with raw_session() as server:
        for uri in uris:
            open_text(server, text, uri)
            await verify(server, uri, text)
