"""Course planning at scale: a course `mfls unpack` made (one glob per lesson listed in
`mfcourse.toml`) against the same lessons under one glob (a table, not a test).

Run: `python3 tests/bench/bench_planning.py [--lessons 19000] [--runs 3]`. An AI-Shifu
export of `--lessons` lessons (chapters of 100) is written, unpacked by `mfls unpack`,
and copied with `lessons = ["**/*.md"]` in its course file. Each measure runs for the
listed course, then for the one-glob course, in turns; each cell is the median of
`--runs` rounds:

- `check folder`: `mfls check --jobs 1 DIR`, a fresh process;
- `check export`: `mfls check --jobs 1 EXPORT.json`, against the same export checked
  with one glob in the course file of the in-memory folder `check` builds (a process
  that rewrites that course file before indexing);
- `server: start and index`: a `python -m mfls` server process started by a client
  (pytest-lsp), from start to the end of its indexing progress, then shut down (the
  client's process, the server and its scanning processes counted);
- `index (Workspace.index_all)`: the server's indexing of the folder in a fresh process,
  with one scanning process;
- `re-plan, one new file`: in that process, after indexing, one new lesson file is
  written and reported `created` (`Workspace.files_changed`), as the editor's watcher
  reports it (the one glob takes it in as a lesson; the listed globs do not name it).

Times are CPU seconds (user + system) of the process, so that a shared machine's load
does not decide the ratio; wall times are printed beside them. The ratio column is
listed / one glob; the target is at most 2.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parents[2]


class Cell(NamedTuple):
    wall: float
    cpu: float


PER_CHAPTER = 100
ONE_GLOB = 'lessons = ["**/*.md"]'

INDEX = r"""
import json, os, sys, time
from mfls.workspace.workspace import Workspace

root = sys.argv[1]
began = time.perf_counter()
cpu = time.process_time()
workspace = Workspace(jobs=1)
workspace.set_folders([root])
workspace.index_all()
indexed = [time.perf_counter() - began, time.process_time() - cpu]
course = workspace.snapshot.courses[root]
chapter = sorted(p for p in os.listdir(root) if p[0].isdigit())[-1]
new = os.path.join(root, chapter, "999-New lesson.md")
with open(new, "w", encoding="utf-8") as file:
    file.write("# New\n\n?[%{{ late }} A | B]\n")
began, cpu = time.perf_counter(), time.process_time()
workspace.files_changed([(new, "created")])
replanned = [time.perf_counter() - began, time.process_time() - cpu]
os.remove(new)
grown = workspace.snapshot.courses[root]
print(json.dumps([indexed, replanned, len(course.docs), len(grown.docs)]))
"""

SERVER = r"""
import asyncio, sys, time
from pathlib import Path
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from mfls.workspace.uris import path_to_uri

async def main(folder):
    client = await ClientServerConfig(server_command=[sys.executable, "-m", "mfls"]).start()

    @client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register(params):
        return None

    await client.initialize_session(
        t.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            workspace_folders=[t.WorkspaceFolder(uri=path_to_uri(folder), name="course")],
        )
    )
    while not any(
        isinstance(v, t.WorkDoneProgressEnd)
        for reports in client.progress_reports.values()
        for v in reports
    ):
        await asyncio.sleep(0.005)
    await client.shutdown_session()
    await client.stop()

asyncio.run(main(sys.argv[1]))
"""

EXPORT_ONE_GLOB = r"""
import sys
from mfls.exports import layout
from mfls.workspace.config import COURSE_FILE

unpack = layout.unpack

def one_glob(*args, **kwargs):
    folder = unpack(*args, **kwargs)
    text = folder.files[COURSE_FILE].decode("utf-8")
    start = text.index("lessons = [")
    end = text.index("\n]", start) + 2
    folder.files[COURSE_FILE] = (text[:start] + sys.argv[1] + text[end:]).encode("utf-8")
    return folder

layout.unpack = one_glob
import mfls.exports.checking as checking
checking.unpack = one_glob
from mfls.cli import main
sys.exit(main(["check", *sys.argv[2:]]))
"""


def lesson_item(index: int, parent: str, position: int) -> dict[str, Any]:
    return {
        "outline_item_bid": f"l{index}",
        "title": f"Lesson {index}",
        "type": 401,
        "hidden": 0,
        "parent_bid": parent,
        "position": f"{position:03}",
        "llm_system_prompt": "",
        "content": f"# Lesson {index}\n\n?[%{{{{ answer {index} }}}} A | B]\n\n"
        f"You chose {{{{ answer {index} }}}}.\n",
    }


def make_export(lessons: int) -> bytes:
    """An AI-Shifu export of `lessons` lessons in chapters of PER_CHAPTER."""
    items: list[dict[str, Any]] = []
    chapters: list[dict[str, Any]] = []
    for chapter in range((lessons + PER_CHAPTER - 1) // PER_CHAPTER):
        bid = f"c{chapter}"
        items.append({**lesson_item(-1, "", chapter + 1), "outline_item_bid": bid})
        items[-1].update(title=f"Chapter {chapter}", content="")
        children = []
        for position in range(min(PER_CHAPTER, lessons - chapter * PER_CHAPTER)):
            index = chapter * PER_CHAPTER + position
            items.append(lesson_item(index, bid, position + 1))
            children.append({"bid": f"l{index}", "id": index, "type": "outline", "children": []})
        chapters.append(
            {"bid": bid, "id": 10**6 + chapter, "type": "outline", "children": children}
        )
    export = {
        "version": "1.0",
        "exported_at": "2025-11-29T09:28:47.702051",
        "shifu": {"shifu_bid": "s", "title": "Planning", "llm_system_prompt": ""},
        "outline_items": items,
        "structure": {"bid": "s", "id": 1, "type": "shifu", "children": chapters},
    }
    return (json.dumps(export, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def mfls(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(HERE)}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, check=False
    )


def cpu_of_children() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(*args: str) -> Cell:
    """Wall and CPU time (user + system) of one `python3 ARGS` process."""
    began, cpu = time.perf_counter(), cpu_of_children()
    done = mfls(*args)
    took = Cell(time.perf_counter() - began, cpu_of_children() - cpu)
    if done.returncode != 0:
        raise SystemExit(f"{args}: exit {done.returncode}\n{done.stdout[-2000:]}{done.stderr}")
    return took


def prepare(work: Path, lessons: int) -> tuple[Path, Path, Path]:
    export = work / "course.json"
    export.write_bytes(make_export(lessons))
    listed, globbed = work / "listed", work / "one-glob"
    done = mfls("-m", "mfls", "unpack", str(export), str(listed))
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    shutil.copytree(listed, globbed)
    course_file = globbed / "mfcourse.toml"
    text = course_file.read_text(encoding="utf-8")
    course_file.write_text(
        re.sub(r"lessons = \[.*?\n\]", ONE_GLOB, text, flags=re.S), encoding="utf-8"
    )
    return export, listed, globbed


def measure(export: Path, listed: Path, globbed: Path) -> dict[str, tuple[Cell, Cell]]:
    """One round: each measure for the listed course, then for the one-glob course."""
    found: dict[str, tuple[Cell, Cell]] = {}
    found["check folder"] = (
        timed("-m", "mfls", "check", "--jobs", "1", str(listed)),
        timed("-m", "mfls", "check", "--jobs", "1", str(globbed)),
    )
    found["check export"] = (
        timed("-m", "mfls", "check", "--jobs", "1", str(export)),
        timed("-c", EXPORT_ONE_GLOB, ONE_GLOB, "--jobs", "1", str(export)),
    )
    found["server: start and index"] = (
        timed("-c", SERVER, str(listed)),
        timed("-c", SERVER, str(globbed)),
    )
    indexed: list[list[Cell]] = []
    for folder in (listed, globbed):
        done = mfls("-c", INDEX, str(folder))
        if done.returncode != 0:
            raise SystemExit(done.stderr)
        index_s, replan_s, before, after = json.loads(done.stdout)
        # Only the glob takes the new file in: unpack's list names the files it wrote.
        if after != before + (folder == globbed):
            raise SystemExit(f"{folder}: {before} -> {after} documents after one new file")
        indexed.append([Cell(*index_s), Cell(*replan_s)])
    found["index (Workspace.index_all)"] = (indexed[0][0], indexed[1][0])
    found["re-plan, one new file"] = (indexed[0][1], indexed[1][1])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lessons", type=int, default=19_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="mfls-bench-planning-") as temp:
        export, listed, globbed = prepare(Path(temp), args.lessons)
        rounds = [measure(export, listed, globbed) for _ in range(args.runs)]
    print(f"{args.lessons} lessons, median of {args.runs} runs; CPU and wall seconds")
    print("| measure | listed globs CPU | one glob CPU | listed / one glob (CPU) | wall |")
    print("|---|---:|---:|---:|---:|")
    worst = 0.0
    for name in rounds[0]:
        listed_s = statistics.median(r[name][0].cpu for r in rounds)
        glob_s = statistics.median(r[name][1].cpu for r in rounds)
        walls = [statistics.median(r[name][side].wall for r in rounds) for side in (0, 1)]
        ratio = listed_s / glob_s if glob_s else float("inf")
        worst = max(worst, ratio)
        print(
            f"| {name} | {listed_s:.2f} | {glob_s:.2f} | {ratio:.2f} "
            f"| {walls[0]:.2f} / {walls[1]:.2f} |"
        )
    print(f"worst CPU ratio {worst:.2f}: {'within' if worst <= 2 else 'NOT within'} 2x")


if __name__ == "__main__":
    main()
