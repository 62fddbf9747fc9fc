"""Time to the first problem in VS Code (code-server with the packaged extension), as a
person counts it: from opening the folder. Prints a table; not a test.

    python3 tests/bench/bench_vscode_first_problem.py [--runs 5] [--vsix PATH]

Each run starts code-server afresh (new user data; the extension installed once) on a copy
of the example course (3 lessons and a reference), with the default settings and no `mfls`
on PATH, so the extension runs the server it carries with `python3`. Headless chromium
opens the folder; the extension activates by itself (the folder holds an `mfcourse.toml`).
The page notes when the workbench's editor area appears and when the first problem shows
(the status bar's problem count, which is the Problems panel's, or an underline).

Between the two, the phases each run shows, from the logs:
- exthost: code-server's extension host process is up (its log's first line);
- activated: VS Code activates mfls (the extension host's log);
- server: the extension has started the server's process (its output channel says how
  long after activation);
- initialized: the server has answered `initialize` (the same line);
- problem: the first problem is on the screen (what is left: `initialized`, indexing,
  `workspace/diagnostic`, and VS Code drawing it; and loading the extension's module, some
  30-50 ms, since the extension counts from its `activate`).
The target (issue 32): the first problem within 2 s of the workbench, median of 5 runs.

Needs what scripts/setup-editors.sh installs (code-server, chromium, editors/vscode/mfls.vsix).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import cast

if not __package__:  # run as a file: again as a module of the checkout (tests.kit)
    from as_module import rerun_as_module

    rerun_as_module(__file__)

from tests.editors.editor_harness import (
    EDITORS,
    QUIET_WORKBENCH,
    copy_course,
    isolated_env,
    path_without_mfls,
    run_bounded,
    serving_code_server,
)

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "vscode_first_problem.cjs"
CODE_SERVER = EDITORS / "code-server" / "node_modules" / ".bin" / "code-server"
STAMP = r"^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}) "
EXTHOST_UP = re.compile(STAMP + r".*Extension host with pid \d+ started")
ACTIVATED = re.compile(STAMP + r".*ExtensionService#_doActivateExtension mfls\.mfls")
STARTED = re.compile(
    r"the server started (\d+) ms after activation, its Python confirmed at (\d+) ms, "
    r"initialized (\d+) ms after its start"
)
# What packages before issue 32 said: the choice came before the start.
STARTED_BEFORE = re.compile(r"server chosen in (\d+) ms, started and initialized in (\d+) ms")

PHASES = (
    ("workbench", "opening -> the workbench's editor area"),
    ("exthost", "workbench -> the extension host up"),
    ("activated", "extension host up -> mfls activated"),
    ("server", "activated -> the server's process started (the extension's activate)"),
    ("initialized", "server started -> `initialize` answered (Python start, imports)"),
    ("problem", "initialized -> the first problem on the screen"),
)


def log_moment(user_data: Path, glob: str, pattern: re.Pattern[str]) -> float | None:
    """The wall-clock time (ms since the epoch) of the first line matching `pattern` in the
    logs named `glob` (code-server writes local time)."""
    for log in sorted((user_data / "logs").rglob(glob)):
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            found = pattern.match(line)
            if found:
                moment = datetime.datetime.strptime(found.group(1), "%Y-%m-%d %H:%M:%S.%f")
                return moment.astimezone().timestamp() * 1000
    return None


def start_figures(user_data: Path) -> tuple[float, float] | None:
    """From the extension's output channel: ms from activation to the server's start, and
    from its start to its answer to `initialize`."""
    for log in sorted((user_data / "logs").rglob("*-MarkdownFlow.log")):
        text = log.read_text(encoding="utf-8", errors="replace")
        found = STARTED.search(text)
        if found:
            return float(found.group(1)), float(found.group(3))
        before = STARTED_BEFORE.search(text)
        if before:
            return float(before.group(1)), float(before.group(2))
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
    found["exthost"] = log_moment(user_data, "*exthost*.log", EXTHOST_UP)
    found["activated"] = log_moment(user_data, "*exthost*.log", ACTIVATED)
    found["start"] = start_figures(user_data)
    return found


def moments(found: dict[str, object]) -> dict[str, float] | None:
    """Each phase's end, in seconds from opening the page (NaN when a log did not say)."""
    if found.get("error") or found.get("activated") is None:
        return None
    opened = float(found["opened"])  # type: ignore[arg-type]

    def since(value: object) -> float:
        return math.nan if value is None else (float(value) - opened) / 1000  # type: ignore[arg-type]

    activated = since(found["activated"])
    figures = found["start"] or (math.nan, math.nan)
    started, initialized = cast("tuple[float, float]", figures)
    return {
        "workbench": since(found["workbench"]),
        "exthost": since(found["exthost"]),
        "activated": activated,
        "server": activated + started / 1000,
        "initialized": activated + (started + initialized) / 1000,
        "problem": since(found["problem"]),
    }


def median(values: list[float]) -> float:
    known = [v for v in values if not math.isnan(v)]
    return statistics.median(known) if known else math.nan


def print_table(rows: list[tuple[int, dict[str, float], float]]) -> None:
    names = [name for name, _ in PHASES]
    print("\nSeconds from opening the folder (each phase's end):")
    print(
        f"{'run':>6} " + " ".join(f"{n:>11}" for n in names) + f" {'wb->problem':>11} {'load':>5}"
    )

    def line(label: str, at: dict[str, float], load: float) -> str:
        shown = " ".join(f"{at[n]:>10.2f}s" for n in names)
        return f"{label:>6} {shown} {at['problem'] - at['workbench']:>10.2f}s {load:>5.1f}"

    for run, at, load in rows:
        print(line(str(run), at, load))
    middle = {n: median([at[n] for _, at, _ in rows]) for n in names}
    spans = [at["problem"] - at["workbench"] for _, at, _ in rows]
    print(line("median", middle, median([load for _, _, load in rows])))

    print("\nEach phase's length (median over the runs):")
    previous = "opening"
    for name, what in PHASES:
        lengths = [at[name] - (0.0 if previous == "opening" else at[previous]) for _, at, _ in rows]
        print(f"  {median(lengths):>6.2f} s  {what}")
        previous = name
    print(
        f"\nworkbench -> first problem over {len(spans)} runs: "
        f"median {statistics.median(spans):.2f} s, max {max(spans):.2f} s (target: 2 s); "
        "opening -> first problem: median "
        f"{median([at['problem'] for _, at, _ in rows]):.2f} s"
    )
    spans_here = [at["problem"] - at["exthost"] for _, at, _ in rows]
    print(
        "extension host up -> first problem (the part mfls's activation, server and answers "
        f"take): median {median(spans_here):.2f} s"
    )
    print("load: the 1-minute load average after each run (2 cores)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--vsix", type=Path, default=EDITORS / "vscode" / "mfls.vsix")
    parser.add_argument("--trace", action="store_true", help="trace the LSP messages (slower)")
    parser.add_argument("--keep", type=Path, help="keep each run's files under this folder")
    options = parser.parse_args()
    for needed in (CODE_SERVER, options.vsix):
        if not needed.exists():
            raise SystemExit(f"missing {needed}: run scripts/setup-editors.sh")

    base = options.keep or Path(tempfile.mkdtemp(prefix="bench-vscode-"))
    base.mkdir(parents=True, exist_ok=True)
    env = isolated_env(base / "home")
    env.pop("PYTHONPATH", None)
    env["PATH"] = path_without_mfls(env.get("PATH", ""))
    extensions = base / "extensions"
    installed = run_bounded(
        [
            *(str(CODE_SERVER), "--user-data-dir", str(base / "install-data")),
            *("--extensions-dir", str(extensions), "--install-extension", str(options.vsix)),
        ],
        env=env,
        cwd=base,
        timeout=120,
    )
    if installed.returncode != 0:
        raise SystemExit(installed.stdout + installed.stderr)

    rows: list[tuple[int, dict[str, float], float]] = []
    for run in range(1, options.runs + 1):
        work = base / f"run-{run}"
        work.mkdir()
        found = one_run(work, copy_course(work), extensions, env, options.trace)
        at = moments(found)
        if at is None:
            print(f"run {run}: {found.get('error') or 'no activation in the log'} ({work})")
            continue
        rows.append((run, at, float(found["load"])))  # type: ignore[arg-type]
        print(f"run {run}: first problem by {found['how']}", flush=True)
    if not options.keep:
        shutil.rmtree(base, ignore_errors=True)
    if not rows:
        return 1
    print_table(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
