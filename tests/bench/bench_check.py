"""Whole-process benchmark: `mfls check COURSE` against a markdown-it-py process parsing
the same files (a table, not a test).

Run: `python3 tests/bench/bench_check.py [--lessons 100 400 1600] [--runs 3]
[--before PATH] [--pure]`. Two corpora of about 15 kB per lesson: `features`, the generator of
bench_features.py (headings, lists, quotes, code, HTML, interactions); `dense`, long plain
paragraphs dense with markers (about 6,000 markers per MB, keys bound in other lessons,
read before they are asked, near misses). Each cell is the median of `--runs` runs of a
fresh process, the processes taking turns; ratios are markdown-it-py / mfls in the same
round (above 1: mfls is faster). `--before PATH` adds a column for the mfls checkout at
PATH (e.g. the code before a change), run the same way; `--pure` one for the pure-Python
build of this checkout (`MFLS_PURE=1`), beside the build `mfls --version` names first.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_features import corpus

HERE = Path(__file__).resolve().parents[2]
MARKDOWN_IT = (
    "import pathlib, sys\n"
    "from markdown_it import MarkdownIt\n"
    "parser = MarkdownIt('commonmark')\n"
    "for path in sorted(pathlib.Path(sys.argv[1]).rglob('*.md')):\n"
    "    parser.parse(path.read_bytes().decode('utf-8'))\n"
)
WORDS = [
    "the",
    "learner",
    "reads",
    "a",
    "short",
    "example",
    "and",
    "then",
    "tries",
    "it",
    "with",
    "their",
    "own",
    "data",
    "while",
    "the",
    "tutor",
    "explains",
    "why",
    "each",
    "step",
    "matters",
    "and",
    "what",
    "to",
    "look",
    "for",
    "next",
    "time",
]


def dense_corpus(root: Path, lessons: int, lesson_bytes: int = 15_000) -> int:
    """Long plain paragraphs with a marker every ~170 bytes; returns the corpus size."""
    (root / "mfcourse.toml").write_text('name = "dense"\n')
    total = 0
    for n in range(lessons):
        parts = [f"# Lesson {n}\n\n?[{{{{ goal {n} }}}} A | B | ...Other]\n\n"]
        size = len(parts[0])
        i = 0
        while size < lesson_bytes:
            words = []
            for w in range(6):
                words += [WORDS[(n + i + w + k) % len(WORDS)] for k in range(28)]
                other = (n * 31 + i * 7 + w) % lessons
                pick = (i + w) % 4
                key = (
                    f"goal {other}",
                    "What would you like to learn?",
                    f"level {n % 50}",
                    f"goal{other}",
                )[pick]
                words.append(f"{{{{ {key} }}}}")
            paragraph = " ".join(words) + ".\n\n"
            if i % 5 == 0:
                paragraph += f"?[{{{{ level {n % 50} }}}} Beginner | Expert]\n\n"
            parts.append(paragraph)
            size += len(paragraph)
            i += 1
        data = "".join(parts).encode()
        (root / f"lesson-{n:04d}.md").write_bytes(data)
        total += len(data)
    return total


def run(command: list[str], pythonpath: str | None, pure: bool = False) -> float:
    env = {k: v for k, v in os.environ.items() if k != "MFLS_PURE"}
    if pure:
        env["MFLS_PURE"] = "1"
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    started = time.perf_counter()
    subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def bench(root: Path, runs: int, before: str | None, pure: bool) -> list[float]:
    check = [sys.executable, "-m", "mfls", "check", str(root)]
    parse = [sys.executable, "-c", MARKDOWN_IT, str(root)]
    ours: list[float] = []
    old: list[float] = []
    theirs: list[float] = []
    ratios: list[float] = []
    old_ratios: list[float] = []
    plain: list[float] = []
    plain_ratios: list[float] = []
    for _ in range(runs):
        ours.append(run(check, str(HERE)))
        theirs.append(run(parse, None))
        ratios.append(theirs[-1] / ours[-1])
        if before is not None:
            old.append(run(check, before))
            old_ratios.append(theirs[-1] / old[-1])
        if pure:
            plain.append(run(check, str(HERE), pure=True))
            plain_ratios.append(theirs[-1] / plain[-1])
    cells = [statistics.median(ours), statistics.median(theirs), statistics.median(ratios)]
    if before is not None:
        cells += [statistics.median(old), statistics.median(old_ratios)]
    if pure:
        cells += [statistics.median(plain), statistics.median(plain_ratios)]
    return cells


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", type=int, nargs="+", default=[100, 400, 1600])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--corpus", choices=("features", "dense"), nargs="+")
    parser.add_argument("--before", help="an older mfls checkout to time beside this one")
    parser.add_argument(
        "--pure", action="store_true", help="also time the pure-Python build (MFLS_PURE=1)"
    )
    options = parser.parse_args()
    build = subprocess.run(
        [sys.executable, "-m", "mfls", "--version"],
        env={**os.environ, "PYTHONPATH": str(HERE)},
        capture_output=True,
        text=True,
    )
    print(build.stdout.strip())
    header = ["corpus", "lessons", "MB", "mfls check (s)", "markdown-it-py (s)", "ratio"]
    if options.before:
        header += ["before (s)", "ratio before"]
    if options.pure:
        header += ["pure (s)", "ratio pure"]
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    for name in options.corpus or ("features", "dense"):
        for lessons in options.lessons:
            with tempfile.TemporaryDirectory() as folder:
                root = Path(folder)
                if name == "features":
                    size = corpus(root, lessons, lessons * 15_000 / 1024 / 1024)
                else:
                    size = dense_corpus(root, lessons)
                cells = bench(root, options.runs, options.before, options.pure)
            shown = [f"{cells[0]:.2f}", f"{cells[1]:.2f}", f"{cells[2]:.2f}x"]
            if options.before:
                shown += [f"{cells[3]:.2f}", f"{cells[4]:.2f}x"]
            if options.pure:
                shown += [f"{cells[-2]:.2f}", f"{cells[-1]:.2f}x"]
            print(" | ".join([name, f"{lessons:,}", f"{size / 1024 / 1024:.1f}", *shown]))
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
