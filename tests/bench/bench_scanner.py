"""Scanner benchmark (a script, not a test): python3 tests/bench/bench_scanner.py [MB]

Prints full-scan throughput of `mfls.syntax.scanner.scan` against
`MarkdownIt("commonmark").parse` on the same generated course, and the median time to
reparse after a one-character edit (`Document.edited`) in a 10 KB and a 1 MB document.
Targets: throughput ratio >= 2.0, 1 MB edit <= 2 ms median, 1 MB / 10 KB ratio <= 3.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable

from markdown_it import MarkdownIt

from mfls.syntax.blocks import parse_blocks
from mfls.syntax.document import Document
from mfls.syntax.scanner import scan

_WORDS = [
    "the",
    "a",
    "learner",
    "course",
    "lesson",
    "example",
    "answer",
    "memory",
    "prompt",
    "topic",
    "step",
    "python",
    "function",
    "value",
    "list",
    "loop",
    "string",
    "variable",
    "explain",
    "choose",
    "practice",
    "introduce",
    "review",
    "summary",
    "next",
    "because",
    "when",
    "while",
    "simple",
    "clear",
    "short",
    "detailed",
    "level",
    "beginner",
    "advanced",
    "skill",
    "goal",
]
_KEYS = [
    "What would you like to learn?",
    "user_name",
    "Which skills would you like to practice?",
    "level",
    "preferred language",
    "🚀 rocket",
]


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(6, 16))]
    roll = rng.random()
    if roll < 0.25:
        words.insert(rng.randrange(len(words)), "{{ " + rng.choice(_KEYS) + " }}")
    elif roll < 0.35:
        words.insert(rng.randrange(len(words)), "`" + rng.choice(_WORDS) + "()`")
    elif roll < 0.45:
        words.insert(rng.randrange(len(words)), "**" + rng.choice(_WORDS) + "**")
    elif roll < 0.5:
        words.insert(rng.randrange(len(words)), "[docs](https://example.com/" + words[0] + ")")
    return " ".join(words).capitalize() + "."


def _paragraph(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(1, 5)):
        lines.append(" ".join(_sentence(rng) for _ in range(rng.randint(1, 2))))
    return "\n".join(lines)


def _interaction(rng: random.Random) -> str:
    choices = " | ".join(rng.choice(_WORDS).capitalize() for _ in range(rng.randint(2, 4)))
    binding = "{{ " + rng.choice(_KEYS) + " }} " if rng.random() < 0.7 else ""
    hint = " | ...Something else" if rng.random() < 0.4 else ""
    return f"?[{binding}{choices}{hint}]"


def _block(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.45:
        return _paragraph(rng)
    if roll < 0.6:
        items = []
        for _ in range(rng.randint(2, 6)):
            items.append("- " + _sentence(rng))
            if rng.random() < 0.3:
                items.append("  - " + _sentence(rng))
        return "\n".join(items)
    if roll < 0.67:
        return "\n".join(f"{k + 1}. {_sentence(rng)}" for k in range(rng.randint(2, 5)))
    if roll < 0.72:
        return "> " + _sentence(rng) + "\n> " + _sentence(rng)
    if roll < 0.8:
        body = "\n".join(f"    {rng.choice(_WORDS)} = {rng.choice(_WORDS)}({k})" for k in range(6))
        return "```python\ndef example():\n" + body + "\n```"
    if roll < 0.84:
        return '<div class="note">\n' + _sentence(rng) + "\n</div>"
    if roll < 0.95:
        return _sentence(rng) + "\n\n" + _interaction(rng)
    return "## " + _sentence(rng)[:40]


def make_course(size: int, seed: int = 20261129) -> str:
    rng = random.Random(seed)
    parts: list[str] = []
    total = 0
    lesson = 0
    while total < size:
        lesson += 1
        parts.append(f"# Lesson {lesson}: {_sentence(rng)[:30]}")
        for _ in range(rng.randint(8, 20)):
            parts.append(_block(rng))
        total = sum(len(p) + 2 for p in parts)
    return "\n\n".join(parts) + "\n"


def _interleaved_medians(fns: list[Callable[[], object]], runs: int) -> list[float]:
    """Median run time of each function, the functions taking turns so that they
    share whatever else the machine is doing."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for k, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            times[k].append(time.perf_counter() - start)
    return [statistics.median(t) for t in times]


def _edit_times(size: int, edits: int, seed: int = 7) -> tuple[float, float, float]:
    """Median and mean time of `Document.edited` for one-character inserts at random
    places, and the median time of the first read of `text` after an edit."""
    text = make_course(size)[:size]
    doc = Document(text)
    rng = random.Random(seed)
    times = []
    for _ in range(edits):
        at = rng.randrange(doc.length)
        start = time.perf_counter()
        new = doc.edited(at, at, "x")
        times.append(time.perf_counter() - start)
        doc = new
    reads = []
    for _ in range(20):
        at = rng.randrange(doc.length)
        doc = doc.edited(at, at, "x")
        start = time.perf_counter()
        _ = doc.text
        reads.append(time.perf_counter() - start)
    return statistics.median(times), statistics.mean(times), statistics.median(reads)


def main(argv: list[str]) -> int:
    megabytes = float(argv[1]) if len(argv) > 1 else 3.0
    text = make_course(int(megabytes * 1_000_000))
    mb = len(text.encode("utf-8")) / 1_000_000
    md = MarkdownIt("commonmark")
    runs = 5
    t_mfls, t_md, t_blocks = _interleaved_medians(
        [lambda: scan(text), lambda: md.parse(text), lambda: parse_blocks(text)], runs
    )
    small, small_mean, _ = _edit_times(10_000, 300)
    large, large_mean, read = _edit_times(1_000_000, 300)
    rows = [
        ("text", f"{mb:.2f} MB, {text.count(chr(10))} lines"),
        ("mfls scan", f"{mb / t_mfls:.2f} MB/s ({t_mfls * 1000:.0f} ms, median of {runs})"),
        ("markdown-it parse", f"{mb / t_md:.2f} MB/s ({t_md * 1000:.0f} ms, median of {runs})"),
        ("throughput ratio", f"{t_md / t_mfls:.2f} (target >= 2.0)"),
        ("  of which blocks", f"{mb / t_blocks:.2f} MB/s ({t_blocks * 1000:.0f} ms)"),
        ("edit, 10 KB", f"{small * 1000:.3f} ms median, {small_mean * 1000:.3f} ms mean"),
        (
            "edit, 1 MB",
            f"{large * 1000:.3f} ms median, {large_mean * 1000:.3f} ms mean (target <= 2 ms)",
        ),
        ("edit ratio 1 MB / 10 KB", f"{large / small:.2f} (target <= 3)"),
        ("first text read, 1 MB", f"{read * 1000:.3f} ms median (joins the pieces)"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        sys.stdout.write(f"{name:<{width}}  {value}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
