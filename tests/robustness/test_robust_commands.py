"""Malformed `workspace/executeCommand` requests, sent to a real `python -m mfls` process:
each gets an error answer and one log line, never a traceback; a string `arguments` is not
split into characters.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from robust_session import PROBE, verify

from tests.kit.lsp_client import SERVER, RawServer

URI = "file:///robustness/commands.md"
TEXT = "# Commands\n\n?[{{ colour }} Red | Blue]\n\nUse {{ colour }} and " + PROBE + ".\n"
INVALID_PARAMS = -32602

MALFORMED: list[tuple[Any, str]] = [
    # the params, and words the answer must hold
    ({"command": "mfls.courseInfo", "arguments": URI}, "must be a list, not a string"),
    ({"command": "mfls.courseMap", "arguments": URI}, "must be a list, not a string"),
    ({"command": "mfls.courseKeys", "arguments": {"uri": URI}}, "not an object"),
    ({"command": "mfls.courseMap", "arguments": 7}, "not a number"),
    ({"command": "mfls.courseInfo", "arguments": True}, "not a boolean"),
    ({"command": "mfls.courseInfo", "arguments": [1]}, "takes the URI of a document"),
    ({"command": "mfls.courseInfo", "arguments": []}, "takes the URI of a document"),
    ({"command": "mfls.courseInfo"}, "takes the URI of a document"),
    ({"command": "mfls.courseMap", "arguments": [None]}, "give its URI"),
    ({"command": "mfls.courseMap", "arguments": [{"uri": 5}]}, "give its URI"),
    ({"command": "mfls.courseKeys", "arguments": [[URI]]}, "give its URI"),
    ({"command": 5, "arguments": [URI]}, "`command` must be a string"),
    ({"command": None}, "`command` must be a string"),
    ({"arguments": [URI]}, "`command` must be a string"),
    ({"command": "mfls.noSuchCommand", "arguments": [URI]}, "unknown command"),
    ("mfls.courseInfo", "params must be an object"),
    ([URI], "params must be an object"),
    (None, "params must be an object"),
]


class LoggedServer(RawServer):
    """`RawServer` with its stderr (the log) kept in a file."""

    log_path: Path

    def log_lines(self) -> list[str]:
        return self.log_path.read_text(errors="replace").splitlines()

    def client_logs(self) -> list[str]:
        return [
            n["params"]["message"] for n in self.notifications if n["method"] == "window/logMessage"
        ]


@contextlib.asynccontextmanager
async def logged_session() -> AsyncIterator[LoggedServer]:
    with tempfile.NamedTemporaryFile(prefix="mfls-commands-", suffix=".log") as log:
        process = await asyncio.create_subprocess_exec(
            *SERVER,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=log,
        )
        server = LoggedServer(process)
        server.log_path = Path(log.name)
        try:
            await server.initialize()
            server.notify(
                "textDocument/didOpen",
                {
                    "textDocument": {
                        "uri": URI,
                        "languageId": "markdown",
                        "version": 1,
                        "text": TEXT,
                    }
                },
            )
            await verify(server, URI, TEXT)
            yield server
        finally:
            await server.close()


async def settled(server: LoggedServer) -> tuple[int, int]:
    """The log's line count and the client's log messages, once the server is idle."""
    await server.hover(URI, 0, 0)  # answered in order: what came before is logged
    await asyncio.sleep(0.1)
    return len(server.log_lines()), len(server.client_logs())


async def test_malformed_command_arguments_get_an_error_and_one_log_line() -> None:
    async with logged_session() as server:
        # Well-formed calls first: a URI in a list (or in an object, for the map) is
        # served as before, without a log line.
        lines, _ = await settled(server)
        info = await server.result(
            "workspace/executeCommand", {"command": "mfls.courseInfo", "arguments": [URI]}
        )
        # The questions: colour, and the probe marker each session reads.
        assert info["lessons"] == 1 and info["questions"] == 2, info
        page = await server.result(
            "workspace/executeCommand", {"command": "mfls.courseMap", "arguments": [{"uri": URI}]}
        )
        assert "colour" in page["html"]
        after, _ = await settled(server)
        assert after == lines, server.log_lines()[lines:]
        for params, words in MALFORMED:
            lines, messages = await settled(server)
            answer = await server.request("workspace/executeCommand", params)
            assert "error" in answer, (params, answer)
            assert answer["error"]["code"] == INVALID_PARAMS, (params, answer)
            assert words in answer["error"]["message"], (params, answer)
            after, after_messages = await settled(server)
            new = server.log_lines()[lines:]
            assert after - lines == 1, (params, new)
            assert "WARNING" in new[0] and "Traceback" not in new[0], new
            assert after_messages - messages <= 1, server.client_logs()[messages:]
        assert not any("Traceback" in line for line in server.log_lines())
        assert not any("Traceback" in message for message in server.client_logs())
        await verify(server, URI, TEXT)
