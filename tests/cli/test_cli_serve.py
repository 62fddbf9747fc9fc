"""`mfls serve`: the `--stdio` flag LSP clients append selects the default transport."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def frame(message: dict[str, object]) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def answers(stdout: bytes) -> list[dict[str, object]]:
    messages = []
    while stdout:
        header, _, rest = stdout.partition(b"\r\n\r\n")
        length = next(
            int(line.split(b":", 1)[1])
            for line in header.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        messages.append(json.loads(rest[:length]))
        stdout = rest[length:]
    return messages


SESSION = b"".join(
    frame(message)
    for message in (
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"processId": None, "rootUri": None, "capabilities": {}},
        },
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    )
)


@pytest.mark.parametrize("argv", [["serve", "--stdio"], ["--stdio"], ["serve"], []])
def test_stdio_flag_serves_lsp_on_standard_streams(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mfls", *argv],
        input=SESSION,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    replies = {reply.get("id"): reply for reply in answers(done.stdout)}
    assert "capabilities" in replies[1]["result"]  # type: ignore[operator]
    assert replies[2]["result"] is None


@pytest.mark.parametrize(
    "argv", [["serve", "--stdio", "--tcp", "127.0.0.1:0"], ["--stdio", "scan", "-"]]
)
def test_stdio_with_another_transport_or_command_is_a_usage_error(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mfls", *argv],
        input=b"",
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert b"--stdio" in done.stderr
