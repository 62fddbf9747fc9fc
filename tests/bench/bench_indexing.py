"""Cold indexing of a generated course as the server does it, its worker processes
counted: time and peak memory of `Workspace.index_all` (a table, not a test).

Run: `python3 tests/bench/bench_indexing.py [--lessons 2000] [--megabytes 30] [--runs 3]
[--before PATH]`. Each configuration runs in a fresh process, the processes taking turns:
this checkout with `jobs` the CPU count (what the server uses), with `jobs=1`, and with
`--before PATH` the mfls checkout at PATH (its `Workspace()` as it was). Memory is the
peak, over samples every 20 ms, of the proportional set size (PSS: shared pages split
between the processes sharing them) of the indexing process plus all its descendants,
less that process's PSS just before indexing, against the corpus size on disk. The
sampling thread makes the process multi-threaded, as the server is, so the workers are
spawned as the server's are (a single-threaded `mfls check` forks them, sharing pages).
Linux only (PSS comes from /proc). Target: memory <= 10x the corpus, workers included.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_features import corpus

HERE = Path(__file__).resolve().parents[2]

CHILD = r"""
import inspect, json, os, sys, threading, time
from mfls.workspace.workspace import Workspace

def pss(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0

def descendants(root):
    parents = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    parents[int(name)] = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        kids = [p for p, parent in parents.items() if parent == pid]
        found += kids
        todo += kids
    return found

me = os.getpid()
jobs = json.loads(sys.argv[2])
if jobs is not None and "jobs" in inspect.signature(Workspace).parameters:
    workspace = Workspace(jobs=jobs)
else:
    workspace = Workspace()
workspace.set_folders([sys.argv[1]])
base = pss(me)
peak = [base]
done = threading.Event()

def sample():
    while not done.wait(0.02):
        total = pss(me) + sum(pss(p) for p in descendants(me))
        peak[0] = max(peak[0], total)

sampler = threading.Thread(target=sample, daemon=True)
started = time.perf_counter()
sampler.start()
workspace.index_all()
seconds = time.perf_counter() - started
done.set()
sampler.join()
peak[0] = max(peak[0], pss(me))
docs = sum(len(c.docs) for c in workspace.snapshot.courses.values())
print(json.dumps({"seconds": seconds, "peak_kb": peak[0] - base, "docs": docs}))
"""

MARKDOWN_IT = (
    "import pathlib, sys, time\n"
    "from markdown_it import MarkdownIt\n"
    "parser = MarkdownIt('commonmark')\n"
    "started = time.perf_counter()\n"
    "for path in sorted(pathlib.Path(sys.argv[1]).rglob('*.md')):\n"
    "    parser.parse(path.read_bytes().decode('utf-8'))\n"
    "print(time.perf_counter() - started)\n"
)


def child(root: Path, checkout: str, jobs: int | None) -> dict[str, float]:
    env = dict(os.environ)
    env["PYTHONPATH"] = checkout
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(root), json.dumps(jobs)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def markdown_it(root: Path) -> float:
    done = subprocess.run(
        [sys.executable, "-c", MARKDOWN_IT, str(root)], capture_output=True, text=True, check=True
    )
    return float(done.stdout.strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", type=int, default=2_000)
    parser.add_argument("--megabytes", type=float, default=30.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", help="an older mfls checkout to time beside this one")
    options = parser.parse_args()
    configurations: list[tuple[str, str, int | None]] = [
        (f"this checkout, jobs {os.cpu_count()}", str(HERE), os.cpu_count() or 1),
        ("this checkout, jobs 1", str(HERE), 1),
    ]
    if options.before:
        configurations.append((f"before ({options.before})", options.before, None))
    print(f"load average at start {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs")
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        size = corpus(root, options.lessons, options.megabytes)
        print(f"corpus: {options.lessons:,} lessons, {size / 1e6:.1f} MB")
        for _, checkout, jobs in configurations:  # warm-up: bytecode, page cache
            child(root, checkout, jobs)
        results: list[list[dict[str, float]]] = [[] for _ in configurations]
        parsed: list[float] = []
        for _ in range(options.runs):
            for k, (_, checkout, jobs) in enumerate(configurations):
                results[k].append(child(root, checkout, jobs))
            parsed.append(markdown_it(root))
    theirs = statistics.median(parsed)
    print()
    print("| configuration | cold index_all (s) | markdown-it-py (s) | ratio | peak memory |")
    print("|---|---|---|---|---|")
    for (name, _, _), found in zip(configurations, results, strict=True):
        seconds = statistics.median(r["seconds"] for r in found)
        peak = statistics.median(r["peak_kb"] for r in found) * 1024
        print(
            f"| {name} | {seconds:.2f} | {theirs:.2f} | {theirs / seconds:.2f}x | "
            f"{peak / 1e6:.0f} MB ({peak / size:.1f}x the corpus) |"
        )
    print(f"\nload average at end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
