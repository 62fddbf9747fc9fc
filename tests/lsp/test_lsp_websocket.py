"""`mfls serve --ws HOST:PORT --root DIR`, a real process, driven by WebSocket clients that
behave like `@codemirror/lsp-client`: JSON text frames, every server request answered
"method not implemented"."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.lsp.ws_harness import Served, client, uri

LESSON_A = "# Welcome\n\n?[{{name}}...Your name]\n"
LESSON_B = "# Next\n\nHello {{name}}, and {{nope}}.\n"
SECRET_KEY = "outside_secret_key"
SECRET = f"# Secret\n\n?[{{{{{SECRET_KEY}}}}}...x]\n\nShh {{{{{SECRET_KEY}}}}}\n"
LIMIT = 200_000


def _course(base: Path) -> tuple[Path, Path]:
    # A course file above the root, taking in the folder beside it: never read.
    (base / "mfcourse.toml").write_text('name = "Above"\nreferences = ["outside/*.md"]\n')
    root = base / "course"
    root.mkdir()
    (root / "a.md").write_text(LESSON_A)
    (root / "b.md").write_text(LESSON_B)
    outside = base / "outside"
    outside.mkdir()
    (outside / "mfcourse.toml").write_text('name = "Outside"\n')
    (outside / "secret.md").write_text(SECRET)
    (root / "linked.md").symlink_to(outside / "secret.md")
    return root, outside


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    return _course(tmp_path_factory.mktemp("ws"))


@pytest.fixture(scope="module")
def served(course: tuple[Path, Path]) -> Iterator[Served]:
    server = Served(course[0], "--max-message-bytes", str(LIMIT))
    yield server
    server.stop()


def codes(diagnostics: list[dict[str, Any]]) -> list[str]:
    return sorted(str(d.get("code")) for d in diagnostics)


async def test_two_clients_at_once_and_one_leaving_stops_only_itself(
    served: Served, course: tuple[Path, Path]
) -> None:
    root = course[0]
    first = await client(served, origin="http://localhost:5173")
    second = await client(served, origin="http://127.0.0.1:8080")
    await asyncio.gather(first.start(), second.start())
    await asyncio.gather(first.open(root / "b.md"), second.open(root / "b.md"))
    found = await asyncio.gather(
        first.diagnostics(root / "b.md"), second.diagnostics(root / "b.md")
    )
    assert codes(found[0]) == codes(found[1]) == ["unbound-reference"]
    assert "nope" in found[0][0]["message"]

    await first.ws.close()
    definition = await second.request(
        "textDocument/definition",
        {"textDocument": {"uri": uri(root / "b.md")}, "position": {"line": 2, "character": 9}},
    )
    [target] = definition["result"]
    assert target["uri"] == uri(root / "a.md")
    assert target["range"]["start"]["line"] == 2
    # A third client still gets in and is served.
    third = await client(served)
    await third.start()
    await third.open(root / "b.md")
    assert codes(await third.diagnostics(root / "b.md")) == ["unbound-reference"]

    for each in (first, second, third):
        assert each.frames and all(isinstance(frame, str) for frame in each.frames)
    await second.ws.close()
    await third.ws.close()


async def test_the_exit_notification_ends_only_its_connection(
    served: Served, course: tuple[Path, Path]
) -> None:
    leaving, staying = await client(served), await client(served)
    await asyncio.gather(leaving.start(), staying.start())
    assert (await leaving.request("shutdown", None))["result"] is None
    await leaving.notify("exit", None)
    with pytest.raises(ConnectionClosed):
        await leaving.drain()
    symbols = await staying.request("workspace/symbol", {"query": "name"})
    assert any(s["name"] == "name" for s in symbols["result"])
    assert served.process.poll() is None
    await staying.ws.close()


@pytest.mark.parametrize(
    ("origin", "query", "status"),
    [
        ("https://evil.example", "good", 403),
        ("http://localhost.evil.example:80", "good", 403),
        ("null", "good", 403),
        ("http://localhost:5173", None, 401),
        ("http://localhost:5173", "wrong", 403),
        (None, "", 401),
        (None, "wrong", 403),
    ],
)
async def test_a_foreign_origin_or_a_missing_or_wrong_token_is_refused(
    served: Served, origin: str | None, query: str | None, status: int
) -> None:
    token = served.token if query == "good" else query
    url = served.base if token is None else f"{served.base}?token={token}"
    with pytest.raises(InvalidStatus) as refused:
        await client(served, origin=origin, url=url)
    assert refused.value.response.status_code == status


async def test_an_allowed_origin_with_the_token_gets_in(served: Served) -> None:
    for origin in ("http://localhost:5173", "http://127.0.0.1:1", "http://localhost", None):
        each = await client(served, origin=origin)
        answer = await each.request("initialize", {"processId": None, "capabilities": {}})
        assert answer["result"]["serverInfo"]["name"] == "mfls"
        await each.ws.close()


async def test_the_client_cannot_choose_the_root_nor_read_outside_it(
    served: Served, course: tuple[Path, Path]
) -> None:
    root, outside = course
    secret = outside / "secret.md"
    ws = await client(served)
    await ws.start(root_uri=uri(outside))
    await ws.notify(
        "workspace/didChangeWorkspaceFolders",
        {"event": {"added": [{"uri": uri(outside), "name": "o"}], "removed": []}},
    )
    await ws.open(secret)
    await ws.open(Path("/etc/passwd"), text="root:x:0:0::/root:/bin/sh\n")
    await ws.open(root / "linked.md", text=SECRET)  # a link inside the root, to outside
    # A course file opened (not on disk) that names lessons and references outside.
    globs = json.dumps(["../outside/*.md", f"{outside}/*.md"])
    await ws.open(root / "mfcourse.toml", text=f"lessons = {globs}\nreferences = {globs}\n")
    escaping = f"{uri(root)}/../outside/secret.md"
    await ws.open(root / "a.md")
    # The root's course is served, the one named by the client is not.
    symbols = await ws.request("workspace/symbol", {"query": "name"})
    assert any(s["name"] == "name" for s in symbols["result"])
    for target in (uri(secret), "file:///etc/passwd", escaping, uri(root / "linked.md")):
        refused = await ws.request(
            "textDocument/definition",
            {"textDocument": {"uri": target}, "position": {"line": 4, "character": 6}},
        )
        assert refused["error"]["code"] == -32602, refused
        assert "outside the course root" in refused["error"]["message"]
    refused = await ws.request(
        "workspace/executeCommand",
        {"command": "mfls.courseInfo", "arguments": [{"uri": " " + uri(secret)}]},
    )
    assert refused["error"]["code"] == -32602
    for query in (SECRET_KEY, ""):
        symbols = await ws.request("workspace/symbol", {"query": query})
        assert all(SECRET_KEY not in json.dumps(s) for s in symbols["result"])
    everything = "\n".join(str(frame) for frame in ws.frames)
    assert SECRET_KEY not in everything
    assert "Outside" not in everything and "Above" not in everything
    assert "root:x:0:0" not in everything
    assert uri(secret) not in [n["params"].get("uri") for n in ws.notes]
    await ws.ws.close()


async def test_a_refusal_is_logged_to_its_own_client_only(
    served: Served, course: tuple[Path, Path]
) -> None:
    refused, other = await client(served), await client(served)
    await asyncio.gather(refused.start(), other.start())
    await refused.open(Path("/etc/hostname"), text="x\n")
    with pytest.raises(InvalidStatus):  # a refused handshake is logged to stderr only
        await client(served, url=f"{served.base}?token=wrong")
    note = await refused.notification(
        "window/logMessage", lambda p: "refused textDocument/didOpen" in p["message"]
    )
    assert "'file:///etc/hostname' is outside the course root" in note["params"]["message"]
    assert (await other.request("workspace/symbol", {"query": "name"}))["result"]
    await asyncio.sleep(0.3)
    assert (await other.request("workspace/symbol", {"query": "name"}))["result"]
    assert other.frames
    assert not any("/etc/hostname" in str(frame) for frame in other.frames)
    for each in (refused, other):
        assert not any("wrong token" in str(frame) for frame in each.frames)
    await refused.ws.close()
    await other.ws.close()


async def test_a_message_over_the_limit_closes_that_connection_only(
    served: Served, course: tuple[Path, Path]
) -> None:
    big, small = await client(served), await client(served)
    await big.start()
    text = "x" * (LIMIT + 1)
    with pytest.raises(ConnectionClosed) as closed:
        await big.open(course[0] / "big.md", text=text)
        await big.drain()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    assert (await small.request("initialize", {"processId": None, "capabilities": {}}))["result"]
    await small.ws.close()


async def test_connections_that_come_and_go_leave_no_thread_behind(
    served: Served, course: tuple[Path, Path]
) -> None:
    root = course[0]
    warm = await client(served)
    await warm.start()
    await warm.open(root / "b.md")
    await warm.diagnostics(root / "b.md")
    await warm.ws.close()
    await asyncio.sleep(0.5)
    before = served.threads()
    for _ in range(12):
        each = await client(served)
        await each.start()
        await each.open(root / "b.md")
        await each.diagnostics(root / "b.md")
        await each.ws.close()
    deadline = time.monotonic() + 10
    while served.threads() > before and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert served.threads() <= before


@pytest.mark.parametrize("end", [signal.SIGTERM, signal.SIGINT])
async def test_a_signal_ends_the_server_cleanly(tmp_path: Path, end: signal.Signals) -> None:
    root, _outside = _course(tmp_path)
    server = Served(root)
    try:
        ws = await client(server)
        await ws.start()
        server.process.send_signal(end)
        with pytest.raises(ConnectionClosed) as closed:
            await ws.drain()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
        assert server.process.wait(timeout=10) == 0
    finally:
        err = server.stop()
    assert "Traceback" not in err, err


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "mfls", "serve", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, env=env)


def test_ws_needs_a_root_folder(tmp_path: Path) -> None:
    assert "--root DIR is required" in run_cli("--ws", "127.0.0.1:0").stderr
    missing = run_cli("--ws", "127.0.0.1:0", "--root", str(tmp_path / "none"))
    assert missing.returncode == 2
    assert "not a folder" in missing.stderr
    stray = run_cli("--root", str(tmp_path))
    assert stray.returncode == 2
    assert "go with --ws" in stray.stderr


def test_without_the_websockets_package_the_error_says_what_to_install(tmp_path: Path) -> None:
    shadow = tmp_path / "shadow"
    shadow.mkdir()
    (shadow / "websockets.py").write_text("raise ImportError('not installed')\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(shadow), env.get("PYTHONPATH")]))
    done = run_cli("--ws", "127.0.0.1:0", "--root", str(tmp_path), env=env)
    assert done.returncode == 2
    assert "pip install 'mfls[ws]'" in done.stderr
    assert done.stdout == ""


def test_another_host_than_this_machine_is_warned_about(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "mfls", "serve", "--ws", "0.0.0.0:0", "--root", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert " at ws://0.0.0.0:" in process.stdout.readline()
    process.send_signal(signal.SIGTERM)
    _out, err = process.communicate(timeout=10)
    assert "warning: listening on 0.0.0.0" in err
    assert process.returncode == 0


async def test_the_course_files_are_the_roots_as_the_server_has_them(
    served: Served, course: tuple[Path, Path]
) -> None:
    root, _outside = course
    ws = await client(served)
    await ws.start()
    answer = await ws.request("workspace/executeCommand", {"command": "mfls.courseFiles"})
    while "error" in answer and "still being indexed" in answer["error"]["message"]:
        await asyncio.sleep(0.1)
        answer = await ws.request("workspace/executeCommand", {"command": "mfls.courseFiles"})
    courses = answer["result"]["courses"]
    assert [c["root"] for c in courses] == [uri(root)]
    assert courses[0]["files"] == {"a.md": LESSON_A, "b.md": LESSON_B}
    assert SECRET_KEY not in json.dumps(answer)
    await ws.ws.close()
