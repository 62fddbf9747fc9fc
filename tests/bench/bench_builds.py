"""Compiled against pure-Python scanner (a script, not a test):
python3 tests/bench/bench_builds.py [MB] [ROUNDS]

Each round runs one fresh process per build, taking turns (the pure one with
`MFLS_PURE=1`); each process scans the generated course of bench_scanner.py three times
and reports its fastest full `scan`, `Document(text)`, `LineIndex(text)` and 100,000
UTF-16 positions from it. Prints the medians and the median of the per-round ratios
(pure / compiled). Needs a compiled build (`pip install -e .` where a C compiler works).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
PROBE = """
import json, sys, time
from bench_scanner import make_course
from mfls import build
from mfls.syntax.document import Document
from mfls.syntax.scanner import scan
from mfls.text.line_index import Encoding, LineIndex

text = make_course(int(float(sys.argv[1]) * 1_000_000))
index = LineIndex(text)
step = max(1, len(text) // 100_000)
offsets = range(0, len(text), step)


def best(work):
    times = []
    for _ in range(3):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


print(json.dumps({
    "build": build.running(),
    "scan": best(lambda: scan(text)),
    "document": best(lambda: Document(text)),
    "line index": best(lambda: LineIndex(text)),
    "positions": best(lambda: [index.position(o, Encoding.UTF16) for o in offsets]),
}))
"""


def measure(megabytes: str, pure: bool) -> dict[str, float | str]:
    env = {k: v for k, v in os.environ.items() if k != "MFLS_PURE"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(HERE)])
    if pure:
        env["MFLS_PURE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, megabytes], env=env, capture_output=True, text=True
    )
    if done.returncode != 0:
        sys.exit(done.stderr)
    return dict(json.loads(done.stdout))


def main(argv: list[str]) -> int:
    megabytes = argv[1] if len(argv) > 1 else "3"
    rounds = int(argv[2]) if len(argv) > 2 else 5
    work = ("scan", "document", "line index", "positions")
    seen: dict[str, dict[str, list[float]]] = {"compiled": {}, "pure": {}}
    for _ in range(rounds):
        for name, pure in (("compiled", False), ("pure", True)):
            result = measure(megabytes, pure)
            expected = "pure Python" if pure else "compiled (mypyc)"
            if result["build"] != expected:
                sys.exit(f"the {name} process ran {result['build']}: is a compiled build here?")
            for key in work:
                seen[name].setdefault(key, []).append(float(result[key]))
    print(f"{megabytes} MB, {rounds} rounds | compiled (ms) | pure (ms) | pure / compiled")
    print("--- | --- | --- | ---")
    for key in work:
        compiled, pure = seen["compiled"][key], seen["pure"][key]
        ratio = statistics.median(p / c for p, c in zip(pure, compiled, strict=True))
        print(
            f"{key} | {statistics.median(compiled) * 1000:.0f} | "
            f"{statistics.median(pure) * 1000:.0f} | {ratio:.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
