"""Whole-process benchmark: `mfls check COURSE` against a markdown-it-py process parsing
the same files (a table, not a test).

Run: `python3 tests/bench/bench_check.py [--lessons 100 400 1600] [--runs 3]
[--before PATH] [--pure] [--corpus features dense similar]`. Three corpora of about 15 kB
per lesson: `features`, the generator of bench_features.py (headings, lists, quotes, code,
HTML, interactions); `dense`, long plain paragraphs dense with markers (about 6,000
markers per MB, keys bound in other lessons, read before they are asked, near misses);
`similar`, the same paragraphs over 306 keys most of which are a digit away from another
(`question 13 of the course`, `q13`), about one read in ten with a digit mistyped: many
near-miss lookups, each near many keys (drawn with a fixed seed). Each cell is the median
of `--runs` runs of a fresh process, the processes taking turns: `mfls check` as a user
runs it (no `--jobs`: the workers it chooses), `mfls check --jobs 1`, and markdown-it-py;
ratios are markdown-it-py / mfls in the same round (above 1: mfls is faster). `--before
PATH` adds a column for the mfls checkout at PATH (e.g. the code before a change), run
the same way (without `--jobs`). `--growth` prints instead the variable `--jobs 1` time
per MB against course size.
`--pure` adds one for the pure-Python build of this checkout (`MFLS_PURE=1`), beside
the build `mfls --version` names first. Every process may write bytecode, and one
untimed round warms the caches first, so no run pays for compiling the sources.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_features import corpus, write_lessons

HERE = Path(__file__).resolve().parents[2]
CORPORA = ("features", "dense", "similar")
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

    def paragraph(n: int, i: int) -> str:
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
        text = " ".join(words) + ".\n\n"
        if i % 5 == 0:
            text += f"?[{{{{ level {n % 50} }}}} Beginner | Expert]\n\n"
        return text

    def head(n: int) -> str:
        return f"# Lesson {n}\n\n?[{{{{ goal {n} }}}} A | B | ...Other]\n\n"

    return write_lessons(root, "dense", lessons, lesson_bytes, head, paragraph)


SIMILAR_SEED = 32
QUESTIONS = 276
"""`similar` keys: `question 1 of the course` ... `question 276 of the course` and `q1` ...
`q30`, 306 in all, most of them a digit away from another, as numbered keys are."""


def similar_keys() -> list[str]:
    return [f"question {i} of the course" for i in range(1, QUESTIONS + 1)] + [
        f"q{i}" for i in range(1, 31)
    ]


def _mistyped(key: str, rng: random.Random) -> str:
    """The key with one of its digits replaced or doubled: usually a key no lesson asks."""
    places = [i for i, c in enumerate(key) if c.isdigit()]
    at = rng.choice(places)
    digit = rng.choice("0123456789")
    return key[:at] + digit + key[at + (rng.random() < 0.7) :]


def similar_corpus(root: Path, lessons: int, lesson_bytes: int = 15_000) -> int:
    """`dense`'s paragraphs over the 306 `similar_keys`, drawn with a fixed seed: each
    lesson asks 4 of them in turn, reads others, and about one read in ten has a digit
    mistyped (a near miss of several keys); returns the corpus size."""
    rng = random.Random(SIMILAR_SEED)
    keys = similar_keys()

    def head(n: int) -> str:
        asked = [keys[(4 * n + j) % len(keys)] for j in range(4)]
        return f"# Lesson {n}\n\n" + "".join(
            f"?[{{{{ {key} }}}} Yes | No | ...Other]\n\n" for key in asked
        )

    def paragraph(n: int, i: int) -> str:
        words = []
        for w in range(6):
            words += [WORDS[(n + i + w + k) % len(WORDS)] for k in range(28)]
            key = rng.choice(keys)
            if rng.random() < 0.1:
                key = _mistyped(key, rng)
            words.append(f"{{{{ {key} }}}}")
        return " ".join(words) + ".\n\n"

    return write_lessons(root, "similar", lessons, lesson_bytes, head, paragraph)


def cpu_seconds() -> float:
    """User and system CPU time of every child process waited for so far."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(command: list[str], pythonpath: str | None, pure: bool = False) -> float:
    dropped = ("PYTHONDONTWRITEBYTECODE", "MFLS_PURE")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    if pure:
        env["MFLS_PURE"] = "1"
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    started = time.perf_counter()
    # From `/`: `python -m` puts the working directory first on the path, which would
    # shadow `pythonpath` from inside a checkout.
    subprocess.run(command, env=env, cwd="/", stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def bench(
    root: Path, runs: int, before: str | None, pure: bool = False
) -> tuple[list[float], list[float]]:
    """Medians: mfls, mfls --jobs 1, markdown-it-py, the two ratios, mfls / mfls --jobs 1
    [, before, its ratio][, pure, its ratio]; and the median CPU time (user and system, the
    workers' included) of mfls, mfls --jobs 1 and markdown-it-py."""
    check = [sys.executable, "-m", "mfls", "check", str(root)]
    serial = [*check, "--jobs", "1"]
    parse = [sys.executable, "-c", MARKDOWN_IT, str(root)]
    commands: list[tuple[list[str], str | None, bool]] = [
        (check, str(HERE), False),
        (serial, str(HERE), False),
        (parse, None, False),
    ]
    if before is not None:
        commands.append((check, before, False))
    if pure:
        commands.append((check, str(HERE), True))
    for command, path, plain in commands:  # the untimed warm-up round
        run(command, path, plain)
    times: list[list[float]] = [[] for _ in commands]
    cpus: list[list[float]] = [[] for _ in commands]
    ratios: list[list[float]] = [[] for _ in commands]
    for _ in range(runs):
        for k, (command, path, plain) in enumerate(commands):
            used = cpu_seconds()
            times[k].append(run(command, path, plain))
            cpus[k].append(cpu_seconds() - used)
        for k in range(len(commands)):
            ratios[k].append(times[2][-1] / times[k][-1])
    cells = [statistics.median(times[0]), statistics.median(times[1]), statistics.median(times[2])]
    cells += [statistics.median(ratios[0]), statistics.median(ratios[1])]
    cells.append(statistics.median(a / b for a, b in zip(times[0], times[1], strict=True)))
    for k in range(3, len(commands)):
        cells += [statistics.median(times[k]), statistics.median(ratios[k])]
    return cells, [statistics.median(cpus[k]) for k in range(3)]


def make_corpus(name: str, root: Path, lessons: int) -> int:
    if name == "features":
        return corpus(root, lessons, lessons * 15_000 / 1024 / 1024)
    if name == "similar":
        return similar_corpus(root, lessons)
    return dense_corpus(root, lessons)


def growth(names: list[str], sizes: list[int], runs: int) -> None:
    """Variable `mfls check --jobs 1` time per MB (a 1-lesson run's time subtracted), and
    its ratio to that at the first size: 1.0 is linear. Wall time, and CPU time, which a
    busy host inflates less."""
    print(
        "corpus | lessons | MB | --jobs 1 (s) | variable s per MB | vs first size | "
        "CPU (s) | variable CPU s per MB | vs first size"
    )
    print(" | ".join("---" for _ in range(9)))
    for name in names:
        timings: dict[int, tuple[float, float, float]] = {}
        for lessons in [1, *sizes]:
            with tempfile.TemporaryDirectory() as folder:
                root = Path(folder)
                size = make_corpus(name, root, lessons)
                command = [sys.executable, "-m", "mfls", "check", "--jobs", "1", str(root)]
                run(command, str(HERE))
                walls, cpus = [], []
                for _ in range(runs):
                    before = cpu_seconds()
                    walls.append(run(command, str(HERE)))
                    cpus.append(cpu_seconds() - before)
            megabytes = size / 1024 / 1024
            timings[lessons] = (megabytes, statistics.median(walls), statistics.median(cpus))
        _, fixed, fixed_cpu = timings[1]
        first: tuple[float, float] | None = None
        for lessons in sizes:
            megabytes, seconds, cpu = timings[lessons]
            per_mb = (seconds - fixed) / megabytes
            cpu_per_mb = (cpu - fixed_cpu) / megabytes
            first = first or (per_mb, cpu_per_mb)
            print(
                f"{name} | {lessons:,} | {megabytes:.1f} | {seconds:.2f} | {per_mb:.3f} | "
                f"{per_mb / first[0]:.2f}x | {cpu:.2f} | {cpu_per_mb:.3f} | "
                f"{cpu_per_mb / first[1]:.2f}x"
            )
            sys.stdout.flush()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", type=int, nargs="+", default=[100, 400, 1600])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--corpus", choices=CORPORA, nargs="+")
    parser.add_argument("--before", help="an older mfls checkout to time beside this one")
    parser.add_argument(
        "--pure", action="store_true", help="also time the pure-Python build (MFLS_PURE=1)"
    )
    parser.add_argument(
        "--growth",
        action="store_true",
        help="instead: `--jobs 1` time per MB against course size (default sizes 200 3200)",
    )
    options = parser.parse_args()
    if options.growth:
        print(f"load average at start {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs\n")
        sizes = options.lessons if options.lessons != [100, 400, 1600] else [200, 3200]
        growth(options.corpus or list(CORPORA), sizes, options.runs)
        print(f"\nload average at end {os.getloadavg()[0]:.1f}")
        return 0
    header = [
        "corpus",
        "lessons",
        "MB",
        "mfls check (s)",
        "--jobs 1 (s)",
        "markdown-it-py (s)",
        "ratio",
        "ratio --jobs 1",
        "mfls check / --jobs 1",
        "CPU s: mfls check, --jobs 1, markdown-it-py",
    ]
    if options.before:
        header += ["before (s)", "ratio before"]
    if options.pure:
        header += ["pure (s)", "ratio pure"]
    build = subprocess.run(
        [sys.executable, "-m", "mfls", "--version"],
        env={**os.environ, "PYTHONPATH": str(HERE)},
        capture_output=True,
        text=True,
    )
    print(build.stdout.strip())
    print(f"load average at start {os.getloadavg()[0]:.1f}, {os.cpu_count()} CPUs\n")
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    for name in options.corpus or CORPORA:
        for lessons in options.lessons:
            with tempfile.TemporaryDirectory() as folder:
                root = Path(folder)
                size = make_corpus(name, root, lessons)
                cells, cpus = bench(root, options.runs, options.before, options.pure)
            shown = [f"{c:.2f}" for c in cells[:3]] + [f"{c:.2f}x" for c in cells[3:6]]
            shown.append(", ".join(f"{c:.2f}" for c in cpus))
            if options.before:
                shown += [f"{cells[6]:.2f}", f"{cells[7]:.2f}x"]
            if options.pure:
                shown += [f"{cells[-2]:.2f}", f"{cells[-1]:.2f}x"]
            print(" | ".join([name, f"{lessons:,}", f"{size / 1024 / 1024:.1f}", *shown]))
            sys.stdout.flush()
    print(f"\nload average at end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
