"""Benchmark of the course map on a large course (a table, not a test).

Run: `python3 tests/bench/bench_course_map.py [--lessons 2000] [--keys 20000] [--runs 3]`.
Writes a course of `--lessons` lessons in 40 chapters with `--keys` questions, each
asked in one lesson and read in three others (one of them, for every tenth key, before
it is asked; every fiftieth key is read with a typo), and reports the medians of:
- load: indexing the folder (`load_course`, what any command pays first);
- map: `course_map` on the loaded course;
- html: `map_html` (and the page's size);
- browser: headless chromium opening the page from disk until its script is done
  (`body[data-ready]`), and the script's own time (`performance.now()` when done), with
  the driver of tests/map (playwright-core from editors/code-server);
- search: typing a filter into the page's search box until the lanes are redrawn.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from mfls.features.course_map import course_map
from mfls.features.course_map_html import map_html
from mfls.workspace.loading import load_course

REPO = Path(__file__).resolve().parents[2]

DRIVER = REPO / "tests" / "map" / "map_browser.cjs"
NODE_MODULES = REPO / "editors" / "code-server" / "node_modules"
CHAPTERS = 40


def write_course(root: Path, lessons: int, keys: int) -> None:
    rng = random.Random(7)
    (root / "mfcourse.toml").write_text(
        'name = "Large course"\nhost = "ai-shifu"\ntarget = "current"\n'
        'lessons = ["chapter-*/*.md"]\n',
        encoding="utf-8",
    )
    asks: list[list[str]] = [[] for _ in range(lessons)]
    reads: list[list[str]] = [[] for _ in range(lessons)]
    for k in range(keys):
        key = f"Question {k} about topic {k % 97}?"
        home = k * lessons // keys
        asks[home].append(key)
        others = rng.sample(range(lessons), 3)
        for n, where in enumerate(others):
            if k % 10 != 0 and where < home:
                where = min(lessons - 1, home + 1 + n)
            read = key if k % 50 != 0 or n else key.replace("Question", "Questoin")
            reads[where].append(read)
    for i in range(lessons):
        chapter = root / f"chapter-{i * CHAPTERS // lessons:02d}"
        chapter.mkdir(exist_ok=True)
        parts = [f"# Lesson {i + 1}\n"]
        for key in asks[i]:
            parts.append(f"Ask this.\n\n?[{{{{ {key} }}}} Yes | No | ...Other]\n")
        for key in reads[i]:
            parts.append(f"Use {{{{ {key} }}}} to adapt the explanation.\n")
        (chapter / f"lesson-{i:04d}.md").write_text("\n".join(parts), encoding="utf-8")


def timed(run):  # type: ignore[no-untyped-def]
    """(wall seconds, CPU seconds of this process, value): on a shared machine the CPU
    time is the steadier figure."""
    started, cpu = time.perf_counter(), time.process_time()
    value = run()
    return (time.perf_counter() - started, time.process_time() - cpu), value


def browser(page: Path, search: str | None = None) -> dict[str, object] | None:
    node, chromium = shutil.which("node"), shutil.which("chromium")
    if node is None or chromium is None or not (NODE_MODULES / "playwright-core").exists():
        return None
    env = dict(os.environ)
    env.update({"MFLS_NODE_MODULES": str(NODE_MODULES), "MFLS_CHROMIUM": chromium})
    env["MAP_HTML"] = str(page)
    if search is not None:
        env["MAP_SEARCH"] = search
    done = subprocess.run(
        [node, str(DRIVER)], capture_output=True, text=True, env=env, timeout=600, check=True
    )
    report: dict[str, object] = json.loads(done.stdout)
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", type=int, default=2000)
    parser.add_argument("--keys", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "course"
        root.mkdir()
        write_course(root, args.lessons, args.keys)
        loads, maps, pages, renders, scripts = [], [], [], [], []
        page_text = ""
        for _ in range(args.runs):
            load_s, loaded = timed(lambda: load_course(str(root)))
            course = loaded.course
            assert course is not None
            map_s, found = timed(lambda c=course: course_map(c))
            html_s, page_text = timed(lambda m=found: map_html(m))
            loads.append(load_s)
            maps.append(map_s)
            pages.append(html_s)
        page = Path(scratch) / "map.html"
        page.write_text(page_text, encoding="utf-8")
        searched = None
        for _ in range(args.runs):
            seen = browser(page)
            if seen is None:
                break
            renders.append(float(seen["renderMs"]) / 1000)  # type: ignore[arg-type]
            scripts.append(float(seen["scriptMs"]) / 1000)  # type: ignore[arg-type]
        if renders:
            searched = browser(page, "topic 42?")
        print(
            f"course: {args.lessons} lessons, {len(found.keys)} keys; load average "
            f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
        )

        def row(name: str, runs: list[tuple[float, float]]) -> None:
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            print(f"{name:26}{wall:7.2f} s wall {cpu:7.2f} s CPU")

        row("load (index the folder)", loads)
        row("course_map", maps)
        row("map_html", pages)
        both = [(a[0] + b[0], a[1] + b[1]) for a, b in zip(maps, pages, strict=True)]
        row("generation (map + html)", both)
        print(f"page size                 {len(page_text.encode()) / 1e6:7.1f} MB")
        if renders:
            print(f"browser: open to ready    {statistics.median(renders):7.2f} s")
            print(f"browser: page script      {statistics.median(scripts):7.2f} s")
            if searched is not None:
                print(f"search 'topic 42?': {len(searched['searched'])} lanes shown")  # type: ignore[arg-type]
        else:
            print("browser: skipped (node, chromium or playwright-core missing)")


if __name__ == "__main__":
    main()
