"""The playground's page pointed at `mfls serve --ws` (`index.html?ws=<the printed URL>`),
in headless chromium: the course is the server's `--root` (a copy of the example course),
its files and texts from the server; the problems on screen are `mfls check`'s, and a key
typed into a lesson that no lesson asks shows as one more. One browser session
(`web_socket_page.cjs`); the site is built by `npm run build` in editors/web."""

from __future__ import annotations

import functools
import json
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from editor_harness import (
    REPO,
    isolated_env,
    require_executable,
    require_path,
    run_bounded,
)
from test_web_playground import SITE, WEB, _Quiet, _served, mfls

DRIVER = Path(__file__).with_name("web_socket_page.cjs")
LESSON = "lessons/01-welcome.md"
SERVE = (sys.executable, "-m", "mfls", "serve", "--ws", "127.0.0.1:0", "--root")


def check_problems(root: Path) -> list[str]:
    """`mfls check`'s problems of the course, as the page's problem list writes them."""
    found = mfls("check", "--format", "json", "--locale", "en", str(root))
    rows = json.loads(found.stdout)["diagnostics"]
    return [
        f"{Path(r['path']).relative_to(root).as_posix()}:{r['line']} {r['code']}: {r['message']}"
        for r in rows
    ]


def test_the_page_over_the_socket_shows_the_servers_course(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    tmp_path = tmp_path_factory.mktemp("wsp")  # short: chromium's socket path is bounded
    require_path(SITE / "index.html", "the playground's site (cd editors/web && npm run build)")
    node = require_executable("node")
    chromium = require_executable("chromium")
    modules = require_path(WEB / "node_modules", "editors/web's npm packages (npm ci)")
    root = tmp_path / "course"
    shutil.copytree(REPO / "examples" / "course", root)
    root = root.resolve()
    expected = check_problems(root)
    assert expected, "the example course has problems to show"
    results = tmp_path / "results.json"
    with (
        _served(functools.partial(_Quiet, directory=str(SITE))) as url,
        socket.socket() as nobody,  # bound and never listening: a connection is refused
    ):
        nobody.bind(("127.0.0.1", 0))
        server = subprocess.Popen(
            [*SERVE, str(root), "--allow-origin", url.rstrip("/")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            assert " at ws://127.0.0.1:" in line, line
            address = line.rsplit(" at ", 1)[1].strip()
            env = isolated_env(
                tmp_path / "home",
                {
                    "MFLS_NODE_MODULES": str(modules),
                    "MFLS_CHROMIUM": chromium,
                    "MFLS_URL": f"{url}index.html?ws={quote(address, safe='')}",
                    "MFLS_EXPECTED": json.dumps(expected),
                    "MFLS_LESSON": LESSON,
                    "MFLS_RESULTS": str(results),
                    "MFLS_SERVER_PID": str(server.pid),
                    "MFLS_NOBODY": f"ws://127.0.0.1:{nobody.getsockname()[1]}/",
                },
            )
            finished = run_bounded([node, str(DRIVER)], env=env, cwd=tmp_path, timeout=180)
        finally:
            server.send_signal(signal.SIGCONT)  # the driver may have stopped it and gone
            server.send_signal(signal.SIGTERM)
            try:
                _out, err = server.communicate(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                _out, err = server.communicate()
    assert results.exists(), f"{finished.stdout}\n{finished.stderr}\n{err}"
    data = json.loads(results.read_text(encoding="utf-8"))
    assert data["errors"] == [], (data, err)
    opened = data["steps"]["opened"]
    on_disk = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.md"))
    assert sorted(opened["files"]) == on_disk
    assert sorted(opened["problems"]) == sorted(expected)
    assert not opened["worker"], "the socket mode starts no worker"
    assert root.as_uri() in opened["status"]
    typed = data["steps"]["typed"]
    assert typed["text"] == (root / LESSON).read_text(encoding="utf-8") + (
        "\nUse {{ A key nobody asks }} here.\n"
    )
    new = [p for p in typed["problems"] if p not in expected]
    assert len(new) == 1 and new[0].startswith(f"{LESSON}:"), typed["problems"]
    assert "A key nobody asks" in new[0]
    # The server stops answering, then dies: the page says so, and each request waiting for
    # the course map fails at once (not after the client's two-minute timeout), as does the
    # next one.
    closed = data["steps"]["closed"]
    where = address.split("?")[0]
    assert closed["status"] == (
        f"mfls at {where} closed the connection: reload the page once it runs again."
    ), closed
    gone = f"warning: course map: mfls at {where} closed the connection"
    assert closed["waiting"] >= 1, closed
    assert closed["failures"] == [gone] * (closed["waiting"] + 1), closed
    assert closed["waitingFailed"] and closed["waitingWithin10s"] and closed["nextFailed"]

    # Nothing listening where the page is pointed: its status says so.
    nobody = data["steps"]["unreachable"]["status"]
    assert nobody.startswith("Cannot reach mfls at ws://127.0.0.1:"), nobody
