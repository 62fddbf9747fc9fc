"""Benchmark of the course workspace and the editor features (a table, not a test).

Run: `python3 tests/bench/bench_features.py [--keys N] [--lessons N] [--megabytes N]`.
Measured:
- completion latency (median, p95) in a course with 20,000 keys: on a settled
  snapshot, and right after a keystroke edit (the new snapshot's key table updated);
- near-miss diagnostics of a lesson in that course;
- cold `Workspace.index_all` for a generated 2,000-lesson course of about 30 MB, against
  markdown-it-py parsing the same files (both read the files from disk), and the peak
  traced memory of indexing against the corpus size.
Targets: completion p95 <= 30 ms; indexing faster than markdown-it-py; peak <= 10x corpus.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from markdown_it import MarkdownIt

from mfls.features.completion import complete
from mfls.features.diagnostics import document_diagnostics
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def timed(action: Callable[[], object], runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def keyed_course(root: Path, keys: int, lessons: int) -> None:
    per_lesson = keys // lessons
    (root / "mfcourse.toml").write_text('name = "keys"\nlessons = ["l/*.md"]\n')
    (root / "l").mkdir()
    for number in range(lessons):
        parts = [f"# Lesson {number}\n\n"]
        for i in range(per_lesson):
            key = f"Question {number}-{i}: what would you like to practise next?"
            parts.append(f"?[{{{{ {key} }}}} Yes | No | ...Other]\n\n")
            parts.append(f"Use {{{{ {key} }}}} to adapt the example.\n\n")
        parts.append("Typo: {{ Question 0-0: what would you like to practice next? }}\n\n")
        (root / "l" / f"{number:04d}.md").write_text("".join(parts))


def bench_completion(keys: int, lessons: int, runs: int) -> list[tuple[str, str]]:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        keyed_course(root, keys, lessons)
        workspace = Workspace()
        workspace.set_folders([str(root)])
        workspace.index_all()
        uri = path_to_uri(str(root / "l" / f"{lessons // 2:04d}.md"))
        text = workspace.snapshot.entry(uri)[1].text + "Now {{ Que"
        workspace.open(uri, text, 1)
        offset = len(text)
        found = complete(workspace.snapshot, uri, offset)
        assert found is not None
        rows.append(("keys offered", f"{len(found.items):,}"))
        started = time.perf_counter()
        workspace.change(uri, [(offset, offset, "s")], 2)
        complete(workspace.snapshot, uri, offset + 1)
        rows.append(
            ("first completion after edit (ms)", f"{(time.perf_counter() - started) * 1000:.1f}")
        )
        settled = timed(lambda: complete(workspace.snapshot, uri, offset + 1), runs)
        rows.append(
            (
                "completion, settled: median / p95 (ms)",
                f"{statistics.median(settled):.2f} / {percentile(settled, 0.95):.2f}",
            )
        )
        edits: list[float] = []
        typed: list[float] = []
        position = offset + 1
        for index in range(runs):
            char = "tion"[index % 4]
            started = time.perf_counter()
            workspace.change(uri, [(position, position, char)], index + 3)
            edited = time.perf_counter()
            position += 1
            complete(workspace.snapshot, uri, position)
            done = time.perf_counter()
            edits.append((edited - started) * 1000)
            typed.append((done - edited) * 1000)
        rows.append(
            (
                "keystroke: Workspace.change median / p95 (ms)",
                f"{statistics.median(edits):.2f} / {percentile(edits, 0.95):.2f}",
            )
        )
        rows.append(
            (
                "completion on each new snapshot: median / p95 (ms)",
                f"{statistics.median(typed):.2f} / {percentile(typed, 0.95):.2f}",
            )
        )
        renamed: list[float] = []
        marker = text.index("{{ Question")
        for index in range(runs // 4):
            at = marker + 3
            started = time.perf_counter()
            workspace.change(uri, [(at, at, "x")], runs + index + 3)
            complete(workspace.snapshot, uri, position + index + 1)
            renamed.append((time.perf_counter() - started) * 1000)
        rows.append(
            (
                "edit inside a bound key + completion: median / p95 (ms)",
                f"{statistics.median(renamed):.2f} / {percentile(renamed, 0.95):.2f}",
            )
        )
        diagnostics = timed(lambda: document_diagnostics(workspace.snapshot, uri), 20)
        rows.append(
            ("diagnostics of the lesson: median (ms)", f"{statistics.median(diagnostics):.2f}")
        )
        other = path_to_uri(str(root / "l" / "0001.md"))
        workspace.open(other, workspace.snapshot.entry(other)[1].text, 1)
        near = [d for d in document_diagnostics(workspace.snapshot, other) if d.code == "near-miss"]
        rows.append(("near-miss diagnostics (one typo planted)", str(len(near))))
    return rows


LESSON_PARTS = (
    "## Step {i}\n\n"
    "Explain the idea behind step {i} in plain words, with a short example that the learner "
    "can run, and connect it to {{{{ What would you like to learn? }}}} where it helps.\n"
    "Keep *emphasis*, **strong text**, [links](https://example.com/{i}) and `code spans` as "
    "they are; a marker in code such as `{{{{ example }}}}` is only an example.\n\n"
    "- first point about {{{{ level {n} }}}}\n- second point\n  continued lazily\n\n"
    "> A quote that mentions {{{{ goal {n} }}}} and ends here.\n\n"
    "```python\nprint('{{{{ not a marker }}}}')\nfor x in range(3):\n    print(x)\n```\n\n"
    "?[{{{{ level {n}-{i} }}}} Beginner//b | Intermediate//i | Expert//e | ...Other]\n\n"
    '<div class="note">\nAn HTML block with {{{{ goal {n} }}}} inside.\n</div>\n\n'
)


def write_lessons(
    root: Path,
    name: str,
    lessons: int,
    lesson_bytes: int,
    head: Callable[[int], str],
    paragraph: Callable[[int, int], str],
) -> int:
    """A course `name` of `lessons` lessons `lesson-NNNN.md`: lesson n is `head(n)` then
    `paragraph(n, 0)`, `paragraph(n, 1)`, ... up to `lesson_bytes`; the course's size."""
    (root / "mfcourse.toml").write_text(f'name = "{name}"\n')
    total = 0
    for n in range(lessons):
        parts = [head(n)]
        size = len(parts[0])
        i = 0
        while size < lesson_bytes:
            parts.append(paragraph(n, i))
            size += len(parts[-1])
            i += 1
        data = "".join(parts).encode()
        (root / f"lesson-{n:04d}.md").write_bytes(data)
        total += len(data)
    return total


def corpus(root: Path, lessons: int, megabytes: float) -> int:
    return write_lessons(
        root,
        "big",
        lessons,
        int(megabytes * 1024 * 1024 / lessons),
        lambda n: f"# Lesson {n}\n\n?[{{{{ goal {n} }}}} A | B]\n\n",
        lambda n, i: LESSON_PARTS.format(i=i, n=n),
    )


def bench_indexing(lessons: int, megabytes: float, rounds: int) -> list[tuple[str, str]]:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        size = corpus(root, lessons, megabytes)
        rows.append(("corpus", f"{lessons:,} lessons, {size / 1024 / 1024:.1f} MB"))

        def index() -> Workspace:
            workspace = Workspace()
            workspace.set_folders([str(root)])
            workspace.index_all()
            return workspace

        ours: list[float] = []
        theirs: list[float] = []
        markers = 0
        parser = MarkdownIt("commonmark")
        for _ in range(rounds):
            gc.collect()
            started = time.perf_counter()
            workspace = index()
            ours.append(time.perf_counter() - started)
            markers = sum(
                len(e.marker_scan.markers)
                for c in workspace.snapshot.courses.values()
                for e in c.docs.values()
            )
            del workspace
            gc.collect()
            started = time.perf_counter()
            for path in sorted(root.glob("*.md")):
                parser.parse(path.read_bytes().decode("utf-8"))
            theirs.append(time.perf_counter() - started)
        rows.append(("markers indexed", f"{markers:,}"))
        rows.append(("cold index_all, best of rounds (s)", f"{min(ours):.2f}"))
        rows.append(("markdown-it-py read + parse, best (s)", f"{min(theirs):.2f}"))
        rows.append(("ratio markdown-it-py / mfls (best)", f"{min(theirs) / min(ours):.2f}x"))
        rows.append(
            (
                "every round: mfls / markdown-it-py (s)",
                ", ".join(f"{a:.0f}/{b:.0f}" for a, b in zip(ours, theirs, strict=True)),
            )
        )
        gc.collect()
        tracemalloc.start()
        workspace = index()
        _, peak = tracemalloc.get_traced_memory()
        retained, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rows.append(("peak traced memory (MB)", f"{peak / 1024 / 1024:.0f}"))
        rows.append(("peak / corpus", f"{peak / size:.1f}x"))
        rows.append(("retained after indexing (MB)", f"{retained / 1024 / 1024:.0f}"))
        del workspace
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=20_000)
    parser.add_argument("--key-lessons", type=int, default=200)
    parser.add_argument("--lessons", type=int, default=2_000)
    parser.add_argument("--megabytes", type=float, default=30.0)
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=2, help="indexing rounds (best kept)")
    options = parser.parse_args()
    rows: list[tuple[str, str]] = []
    rows += bench_completion(options.keys, options.key_lessons, options.runs)
    rows += bench_indexing(options.lessons, options.megabytes, options.rounds)
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name.ljust(width)}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
