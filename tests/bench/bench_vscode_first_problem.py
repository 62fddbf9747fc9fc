"""Time to the first problem in VS Code (code-server with the packaged extension), as a
person counts it: from opening the folder. Prints a table; not a test.

    python3 tests/bench/bench_vscode_first_problem.py [--runs 5] [--vsix PATH] [--against PATH]

Each run starts code-server afresh (new user data; the extension installed once) on a copy
of the example course (3 lessons and a reference), with the default settings and no `mfls`
on PATH, so the extension runs the server it carries with `python3`. Headless chromium
opens the folder; the extension activates by itself (the folder holds an `mfcourse.toml`).
The page notes when the workbench's editor area appears and when the first problem shows
(the status bar's problem count, which is the Problems panel's, or an underline).

Between the two, the phases each run shows, from the logs:
- exthost: code-server's extension host process is up (its log's first line);
- activated: VS Code activates mfls (the extension host's log);
- (peer: an empty extension installed beside mfls, with mfls's activation events, whose
  `activate` does nothing: when VS Code activates it is the earliest any extension can
  start work; what comes before it is code-server's and VS Code's, not mfls's);
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
import zipfile
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
ACTIVATED = re.compile(STAMP + r".*ExtensionService#_doActivateExtension mfls\.mfls,")
PEER = "mfls-bench.empty-peer"
PEER_ACTIVATED = re.compile(STAMP + r".*ExtensionService#_doActivateExtension " + re.escape(PEER))
# "its Python confirmed" only when the extension probed the Python before the start.
STARTED = re.compile(
    r"the server started (\d+) ms after activation, (?:its Python confirmed at \d+ ms, )?"
    r"initialized (\d+) ms after its start"
)
# What packages before issue 32 said: the choice came before the start.
STARTED_BEFORE = re.compile(r"server chosen in (\d+) ms, started and initialized in (\d+) ms")

PHASES = (
    ("workbench", "opening -> the workbench's editor area"),
    ("exthost", "workbench -> the extension host up"),
    ("peer", "extension host up -> an empty extension activated (the floor)"),
    ("activated", "the empty extension -> mfls activated"),
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


def empty_peer(folder: Path) -> Path:
    """A .vsix of an extension that does nothing, activated by what activates mfls."""
    manifest = json.loads((EDITORS / "vscode" / "package.json").read_text(encoding="utf-8"))
    publisher, name = PEER.split(".")
    package = {
        "name": name,
        "publisher": publisher,
        "version": "0.0.1",
        "engines": manifest["engines"],
        "main": "./extension.js",
        "activationEvents": manifest["activationEvents"],
    }
    vsix = folder / "empty-peer.vsix"
    with zipfile.ZipFile(vsix, "w") as archive:
        archive.writestr("extension/package.json", json.dumps(package))
        archive.writestr("extension/extension.js", "exports.activate = () => undefined;\n")
        archive.writestr(
            "extension.vsixmanifest",
            '<?xml version="1.0" encoding="utf-8"?><PackageManifest Version="2.0.0" '
            'xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011"><Metadata>'
            f'<Identity Language="en-US" Id="{name}" Version="0.0.1" Publisher="{publisher}"/>'
            f"<DisplayName>{name}</DisplayName></Metadata><Installation>"
            '<InstallationTarget Id="Microsoft.VisualStudio.Code"/></Installation><Assets>'
            '<Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" '
            'Addressable="true"/></Assets></PackageManifest>',
        )
        archive.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0" encoding="utf-8"?><Types xmlns="http://schemas.openxmlformats'
            '.org/package/2006/content-types"><Default Extension=".json" ContentType='
            '"application/json"/><Default Extension=".js" ContentType="application/javascript"/>'
            '<Default Extension=".vsixmanifest" ContentType="text/xml"/></Types>',
        )
    return vsix


def start_figures(user_data: Path) -> tuple[float, float] | None:
    """From the extension's output channel: ms from activation to the server's start, and
    from its start to its answer to `initialize`."""
    for log in sorted((user_data / "logs").rglob("*-MarkdownFlow.log")):
        text = log.read_text(encoding="utf-8", errors="replace")
        found = STARTED.search(text)
        if found:
            return float(found.group(1)), float(found.group(2))
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
    found["peer"] = log_moment(user_data, "*exthost*.log", PEER_ACTIVATED)
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
        "peer": since(found.get("peer")),
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
    floor = [at["peer"] - at["workbench"] for _, at, _ in rows]
    print(
        "workbench -> an empty extension activated (the floor: code-server's extension host "
        f"and VS Code's activation, before any extension's code runs): median {median(floor):.2f} s"
    )
    ours = [at["problem"] - min(at["peer"], at["activated"]) for _, at, _ in rows]
    print(
        "extension activated -> first problem (mfls's part: its activation, the server's "
        f"start and answers, VS Code drawing them): median {median(ours):.2f} s"
    )
    print("load: the 1-minute load average after each run (2 cores)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--vsix", type=Path, default=EDITORS / "vscode" / "mfls.vsix")
    parser.add_argument("--trace", action="store_true", help="trace the LSP messages (slower)")
    parser.add_argument("--keep", type=Path, help="keep each run's files under this folder")
    parser.add_argument(
        "--against",
        type=Path,
        help="another .vsix (e.g. the code before a change), run in turn with --vsix",
    )
    options = parser.parse_args()
    for needed in (CODE_SERVER, options.vsix):
        if not needed.exists():
            raise SystemExit(f"missing {needed}: run scripts/setup-editors.sh")

    base = options.keep or Path(tempfile.mkdtemp(prefix="bench-vscode-"))
    base.mkdir(parents=True, exist_ok=True)
    env = isolated_env(base / "home")
    env.pop("PYTHONPATH", None)
    env["PATH"] = path_without_mfls(env.get("PATH", ""))
    packages = {"": options.vsix}
    if options.against:
        packages = {"this": options.vsix, "against": options.against}
    folders = {label: base / f"extensions-{label or 'mfls'}" for label in packages}
    for label, vsix in packages.items():
        for package in (vsix, empty_peer(base)):
            installed = run_bounded(
                [
                    *(str(CODE_SERVER), "--user-data-dir", str(base / "install-data")),
                    *("--extensions-dir", str(folders[label]), "--install-extension", str(package)),
                ],
                env=env,
                cwd=base,
                timeout=120,
            )
            if installed.returncode != 0:
                raise SystemExit(installed.stdout + installed.stderr)

    rows: dict[str, list[tuple[int, dict[str, float], float]]] = {label: [] for label in packages}
    for run in range(1, options.runs + 1):
        # With --against, the two packages take turns: the load falls on both alike.
        for label in packages:
            work = base / f"run-{run}{'-' + label if label else ''}"
            work.mkdir()
            found = one_run(work, copy_course(work), folders[label], env, options.trace)
            at = moments(found)
            named = f"run {run}{' (' + label + ')' if label else ''}"
            if at is None:
                print(f"{named}: {found.get('error') or 'no activation in the log'} ({work})")
                continue
            rows[label].append((run, at, float(found["load"])))  # type: ignore[arg-type]
            print(f"{named}: first problem by {found['how']}", flush=True)
    if not options.keep:
        shutil.rmtree(base, ignore_errors=True)
    if not all(rows.values()):
        return 1
    for label, vsix in packages.items():
        if label:
            print(f"\n=== {label}: {vsix}")
        print_table(rows[label])
    return 0


if __name__ == "__main__":
    sys.exit(main())
