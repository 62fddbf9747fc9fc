"""The playground's first load and keystrokes in headless chromium (a script, not a test):
python3 tests/bench/bench_playground.py [ROUNDS] [KEYSTROKES]

Serves editors/web/dist (built by `npm run build` in editors/web) on localhost and runs
`bench_playground.cjs`: ROUNDS first loads (default 3), each in a fresh browser context,
then KEYSTROKES pairs (default 10) of a keystroke that makes a near miss and one that
undoes it, in a 50 KB lesson added through the page (a quarter second between keys) and in
a lesson of 30 problems with quick fixes (each key as soon as the last one's problems
show). Prints a table against the budgets of issue 24: at most 15 MB transferred, the
example course's problems on screen within 6 s, a keystroke's diagnostics within 150 ms;
a second visit (the runtime and a snapshot of Python cached by the first) within 1 s (issue
31);
and how long the Learner view takes to open (remark-flow is fetched then, not before).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "editors" / "web"
DRIVER = Path(__file__).with_name("bench_playground.cjs")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def main(rounds: int, keystrokes: int) -> int:
    site = WEB / "dist"
    if not (site / "index.html").exists():
        sys.exit("no built site: cd editors/web && npm ci && npm run build")
    handler = functools.partial(_Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with tempfile.TemporaryDirectory(prefix="mflsbench") as scratch:
        results = Path(scratch) / "results.json"
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": scratch,
            "MFLS_NODE_MODULES": str(WEB / "node_modules"),
            "MFLS_URL": f"http://127.0.0.1:{server.server_address[1]}/",
            "MFLS_CHROMIUM": shutil.which("chromium") or "/usr/bin/chromium",
            "MFLS_ROUNDS": str(rounds),
            "MFLS_KEYSTROKES": str(keystrokes),
            "MFLS_RESULTS": str(results),
            "MFLS_DEBUG": os.environ.get("MFLS_DEBUG", ""),
        }
        node = shutil.which("node") or "node"
        subprocess.run([node, str(DRIVER)], env=env, cwd=scratch, check=False, timeout=900)
        data = json.loads(results.read_text(encoding="utf-8"))
    server.shutdown()
    if data["errors"]:
        print("\n".join(data["errors"]), file=sys.stderr)
        return 1
    loads = data["rounds"]
    megabytes = [r["bytes"] / 1e6 for r in loads]
    seconds = [r["problemsSeconds"] for r in loads]
    started = [r["phases"]["seconds"] for r in loads]
    pyodide = [r["phases"]["loaded"] for r in loads]
    typed = [k["ms"] for r in loads for k in r["keystrokes"] if k["scenario"] == "big"]
    crowded = [k["ms"] for r in loads for k in r["keystrokes"] if k["scenario"] == "crowded"]
    lesson = next((r.get("lessonBytes") for r in loads if r.get("lessonBytes")), 0)
    rows = [
        ("first load, bytes transferred", f"{statistics.median(megabytes):.2f} MB", "15 MB"),
        (
            "opening to the example's problems on screen",
            f"median {statistics.median(seconds):.2f} s (min {min(seconds):.2f}, "
            f"max {max(seconds):.2f})",
            "6 s",
        ),
        (
            "  of which Pyodide loaded / mfls ready in the worker",
            f"{statistics.median(pyodide):.2f} s / {statistics.median(started):.2f} s",
            "",
        ),
    ]
    warm = [r["warm"] for r in loads]
    warm_seconds = [w["problemsSeconds"] for w in warm]
    rows += [
        (
            "second visit (runtime cached) to the example's problems",
            f"median {statistics.median(warm_seconds):.2f} s (min {min(warm_seconds):.2f}, "
            f"max {max(warm_seconds):.2f})",
            "1 s",
        ),
        (
            "  of which Pyodide loaded / mfls ready; bytes sent; from the snapshot",
            f"{statistics.median(w['phases']['loaded'] for w in warm):.2f} s / "
            f"{statistics.median(w['phases']['seconds'] for w in warm):.2f} s; "
            f"{statistics.median(w['bytes'] for w in warm) / 1e6:.2f} MB; "
            f"{sum(bool(w['phases'].get('snapshot')) for w in warm)} of {len(warm)}",
            "",
        ),
        (
            "  worker began / ready after navigation; its steps (ms from its start)",
            f"{statistics.median(w['phases']['began'] for w in warm):.2f} s / "
            f"{statistics.median(w['phases']['readyAt'] for w in warm):.2f} s; "
            + ", ".join(
                f"{name} {statistics.median(w['phases']['steps'].get(name, 0) for w in warm):.0f}"
                for name in ("compiled", "moduleCreated", "snapshotRead", "pythonStarted", "served")
            ),
            "",
        ),
    ]
    learner = [r["learnerMs"] for r in loads]
    fetched_first = any(r["learnerFetchedFirst"] for r in loads)
    rows.append(
        (
            "Learner view: opened to the lesson's interactions drawn",
            f"median {statistics.median(learner):.0f} ms (remark-flow "
            f"{'in' if fetched_first else 'not in'} the first load)",
            "",
        )
    )
    if typed:
        rows.append(
            (
                f"keystroke to its diagnostics on screen, {lesson / 1000:.0f} KB lesson",
                f"median {statistics.median(typed):.0f} ms, p95 {percentile(typed, 0.95):.0f} ms "
                f"({len(typed)} keystrokes)",
                "150 ms",
            )
        )
    if crowded:
        rows.append(
            (
                "keystroke to its diagnostics, 30 problems with fixes, next key at once",
                f"median {statistics.median(crowded):.0f} ms, "
                f"p95 {percentile(crowded, 0.95):.0f} ms ({len(crowded)} keystrokes)",
                "150 ms",
            )
        )
    sent = next((r["crowdedSent"] for r in loads if r.get("crowdedSent")), {})
    if sent and crowded:
        per_key = ", ".join(
            f"{method} {count / len(crowded):.1f}" for method, count in sorted(sent.items())
        )
        rows.append(("  LSP messages to the worker per keystroke", per_key, ""))
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}} | {'result':<48} | budget")
    for name, value, budget in rows:
        print(f"{name:<{width}} | {value:<48} | {budget}")
    return 0


if __name__ == "__main__":
    arguments = [int(a) for a in sys.argv[1:3]]
    sys.exit(main(*(arguments + [3, 10][len(arguments) :])))
