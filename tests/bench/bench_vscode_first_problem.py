"""Time to the first problem in VS Code (code-server with the packaged extension), as a
person sees it. Prints a table; not a test.

    python3 tests/bench/bench_vscode_first_problem.py [--runs 5]

Each run starts code-server afresh (new user data; the extension installed once) on a copy
of the example course (3 lessons and a reference), with the default settings and no `mfls`
on PATH, so the extension runs the server it carries with `python3`. Headless chromium
opens the folder; the extension activates by itself (the folder holds an `mfcourse.toml`).
The page notes when the workbench's editor area appears and when the first problem shows
(the status bar's problem count, which is the Problems panel's, or an underline); the
extension host's log gives the moment the extension was activated. The figure is
activation -> first problem (issue 22: within 2 s).

Needs what scripts/setup-editors.sh installs (code-server, chromium, editors/vscode/mfls.vsix).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import shutil
import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "editors"))

from editor_harness import (  # noqa: E402
    EDITORS,
    QUIET_WORKBENCH,
    copy_course,
    isolated_env,
    path_without_mfls,
    run_bounded,
    serving_code_server,
)

DRIVER = HERE / "vscode_first_problem.cjs"
CODE_SERVER = EDITORS / "code-server" / "node_modules" / ".bin" / "code-server"
ACTIVATED = re.compile(
    r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) .*ExtensionService#_doActivateExtension mfls\.mfls"
)


def activation_ms(user_data: Path) -> float | None:
    """The wall-clock time (ms since the epoch) of the extension's activation, from the
    extension host's log (local time, as code-server writes it)."""
    for log in sorted((user_data / "logs").rglob("*exthost*.log")):
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            found = ACTIVATED.match(line)
            if found:
                moment = datetime.datetime.strptime(found.group(1), "%Y-%m-%d %H:%M:%S.%f")
                return moment.astimezone().timestamp() * 1000
    return None


STARTED = re.compile(r"server chosen in (\d+) ms, started and initialized in (\d+) ms")


def start_figures(user_data: Path) -> tuple[float, float] | None:
    """What the extension's output channel says of its start: the ms spent choosing the
    server (finding a Python) and starting it up to its answer to `initialize`."""
    for log in sorted((user_data / "logs").rglob("*-MarkdownFlow.log")):
        found = STARTED.search(log.read_text(encoding="utf-8", errors="replace"))
        if found:
            return float(found.group(1)), float(found.group(2))
    return None


def one_run(
    work: Path, course: Path, extensions: Path, env: dict[str, str], trace: bool
) -> dict[str, object]:
    user_data = work / "user-data"
    (user_data / "User").mkdir(parents=True)
    settings = dict(QUIET_WORKBENCH)
    if trace:
        settings["mfls.trace.server"] = "messages"
    (user_data / "User" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    args = [
        str(CODE_SERVER),
        "--user-data-dir",
        str(user_data),
        "--extensions-dir",
        str(extensions),
    ]
    results, log = work / "result.json", work / "code-server.log"
    with serving_code_server(args, course, env=env, cwd=work, log=log) as url:
        driver_env = dict(env)
        driver_env.update(
            {
                "MFLS_NODE_MODULES": str(EDITORS / "code-server" / "node_modules"),
                "MFLS_URL": url,
                "MFLS_COURSE": str(course),
                "MFLS_RESULTS": str(results),
                "MFLS_WAIT_MS": "60000",
                "MFLS_CHROMIUM": shutil.which("chromium") or "/usr/bin/chromium",
            }
        )
        run_bounded(
            [shutil.which("node") or "node", str(DRIVER)], env=driver_env, cwd=work, timeout=180
        )
    found: dict[str, object] = json.loads(results.read_text(encoding="utf-8"))
    found["load"] = os.getloadavg()[0]
    found["activated"] = activation_ms(user_data)
    found["start"] = start_figures(user_data)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--trace", action="store_true", help="trace the LSP messages (slower)")
    parser.add_argument("--keep", type=Path, help="keep each run's files under this folder")
    options = parser.parse_args()
    vsix = EDITORS / "vscode" / "mfls.vsix"
    for needed in (CODE_SERVER, vsix):
        if not needed.exists():
            raise SystemExit(f"missing {needed}: run scripts/setup-editors.sh")
    import tempfile

    base = options.keep or Path(tempfile.mkdtemp(prefix="bench-vscode-"))
    base.mkdir(parents=True, exist_ok=True)
    env = isolated_env(base / "home")
    env.pop("PYTHONPATH", None)
    env["PATH"] = path_without_mfls(env.get("PATH", ""))
    extensions = base / "extensions"
    installed = run_bounded(
        [
            *(str(CODE_SERVER), "--user-data-dir", str(base / "install-data")),
            *("--extensions-dir", str(extensions), "--install-extension", str(vsix)),
        ],
        env=env,
        cwd=base,
        timeout=120,
    )
    if installed.returncode != 0:
        raise SystemExit(installed.stdout + installed.stderr)

    rows = []
    loads: list[float] = []
    for run in range(1, options.runs + 1):
        work = base / f"run-{run}"
        work.mkdir()
        found = one_run(work, copy_course(work), extensions, env, options.trace)
        if found.get("error") or found.get("activated") is None:
            print(f"run {run}: {found.get('error') or 'no activation in the log'} ({work})")
            continue
        opened, activated = float(found["opened"]), float(found["activated"])  # type: ignore[arg-type]
        workbench, problem = float(found["workbench"]), float(found["problem"])  # type: ignore[arg-type]
        choose, start = found["start"] or (float("nan"), float("nan"))  # type: ignore[misc]
        rows.append(
            (
                run,
                workbench - opened,
                activated - opened,
                problem - opened,
                choose,
                start,
                problem - activated,
            )
        )
        loads.append(float(found["load"]))  # type: ignore[arg-type]
        print(f"run {run}: first problem by {found['how']}", flush=True)
    if not options.keep:
        shutil.rmtree(base, ignore_errors=True)
    if not rows:
        return 1
    print()
    heads = ("workbench", "activated", "problem", "python", "server", "activation->problem")
    print(
        f"{'run':>4} "
        + " ".join(f"{head:>10}" for head in heads[:-1])
        + f" {heads[-1]:>20} {'load':>5}"
    )
    for (run, *figures), load in zip(rows, loads, strict=True):
        shown = " ".join(f"{f / 1000:>9.2f}s" for f in figures[:-1])
        print(f"{run:>4} {shown} {figures[-1] / 1000:>19.2f}s {load:>5.1f}")
    spans = [row[-1] / 1000 for row in rows]
    print(
        f"\nactivation -> first problem over {len(spans)} runs: "
        f"median {statistics.median(spans):.2f} s, "
        f"max {max(spans):.2f} s (target: 2 s)"
    )
    print(
        "workbench, activated, problem: seconds from opening the page; python: the extension "
        "choosing a Python; server: from starting the server to its answer to `initialize`; "
        "load: the 1-minute load average after the run"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
