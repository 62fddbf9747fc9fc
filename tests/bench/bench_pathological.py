"""Scan time against input size for inputs built to be slow. Prints a table.

    python3 tests/bench/bench_pathological.py [--only NAME ...] [--timeout 120] [--scale 1]
                                              [--edit]

Every case builds its input from a size n and is scanned at n, 2n, 4n and 8n (the
repetition cases reach 10^5 repetitions at 4n; the long line is 5 MB at 8n). Times are
the CPU time of a child process (best of up to 5 runs), so other load on the machine
counts little. A linear scanner about doubles its time per doubling: the table prints
that ratio for each step, and the growth exponent k fitted to t ~ size^k over all
sizes (1 is linear, 2 quadratic). A case is SUPERLINEAR when k exceeds `--limit`
(1.3 by default) and its largest time is measurable. Each size runs in a child
process killed after `--timeout` seconds (120 by default; a TIMEOUT counts as superlinear).
With `--edit` the time measured is that of one keystroke instead: inserting a character in
the middle of the already scanned `Document` and reading its result (an edit reparses the
top-level units it touches, so inside one huge unit it costs time linear in that unit).
Exit status: 0 when every case is linear, 1 otherwise.
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

MIN_MEASURABLE = 0.02  # seconds; ratios between smaller times are mostly noise


@dataclass(frozen=True)
class Case:
    name: str
    what: str
    build: Callable[[int], str]
    base: int  # n of the first size


def _runs(unit: str) -> Callable[[int], str]:
    return lambda n: unit * n


def _backtick_runs(n: int) -> str:
    # Runs of 1..200 backticks, none closed by a run of the same length.
    return "".join("`" * (k % 200 + 1) + "a" for k in range(n))


def _quote_lines(n: int) -> str:
    return ("> " * 100 + "text\n") * (n // 100)


def _list_staircase(n: int) -> str:
    stair = "".join("  " * k + "- item\n" for k in range(50))
    return stair * (n // 50)


def _one_line(n: int) -> str:
    piece = "word {{ key }} ?[{{ q }} A | B] `code` $x$ <b>t</b> [l](u) \\{{ no }} "
    return (piece * (n // len(piece) + 1))[:n]


def _fence_lists(n: int) -> str:
    return "- ```\n" * n


def _fence_quotes(n: int) -> str:
    return "> ```\n" * n


def _fence_varied(n: int) -> str:
    return "".join(("`" * (3 + k % 7) if k % 2 else "~" * (3 + k % 5)) + "x\n" for k in range(n))


def _unclosed_html(n: int) -> str:
    return "<div>\n<!-- " * n


CASES: tuple[Case, ...] = (
    Case("{{", "'{{ ' x n: unclosed markers in one paragraph", _runs("{{ "), 25_000),
    Case("{{-lines", "'{{\\n' x n: one paragraph of unclosed markers", _runs("{{\n"), 25_000),
    Case("{{}}", "'{{a}} ' x n: closed markers", _runs("{{a}} "), 25_000),
    Case("?[", "'?[' x n: unclosed interactions", _runs("?["), 25_000),
    Case("?[-lines", "'?[a\\n' x n: unclosed interactions over lines", _runs("?[a\n"), 25_000),
    Case("?[{{", "'?[{{ ' x n: interactions with unclosed markers", _runs("?[{{ "), 25_000),
    Case("?[]", "'?[{{ a }} b | c] ' x n: closed interactions", _runs("?[{{ a }} b | c] "), 25_000),
    Case("`", "'`a' x n: unmatched single backticks", _runs("`a"), 25_000),
    Case("`-runs", "runs of 1..200 backticks, never closed", _backtick_runs, 25_000),
    Case("<", "'<' x n", _runs("<"), 25_000),
    Case("<a", "'<a ' x n: unclosed tags", _runs("<a "), 25_000),
    Case("<!--", "'<!--' x n after text: unclosed comments", _runs("a <!-- "), 25_000),
    Case("$", "'$a ' x n: unmatched math openers", _runs("$a "), 25_000),
    Case("$$", "'$$a ' x n: unmatched display math", _runs("$$a "), 25_000),
    Case("[", "'[' x n", _runs("["), 25_000),
    Case("[a](", "'[a](' x n: unclosed link resources", _runs("[a]("), 25_000),
    Case("[a][", "'[a][' x n: unclosed reference labels", _runs("[a]["), 25_000),
    Case(">", "'> ' x n: one line nested n deep", _runs("> "), 25_000),
    Case(">-lines", "lines 100 quotes deep", _quote_lines, 25_000),
    Case("- ", "'- ' x n: one line, lists nested n deep", _runs("- "), 25_000),
    Case("1. ", "'1. ' x n: ordered lists nested n deep", _runs("1. "), 25_000),
    Case("- -lines", "staircases of lists 50 deep", _list_staircase, 5_000),
    Case("line-5MB", "one line of mixed constructs, 5 MB at 8n", _one_line, 625_000),
    Case("```", "'```x\\n' x n: one fence open to the end", _runs("```x\n"), 25_000),
    Case("- ```", "'- ```\\n' x n: unclosed fences closed by list items", _fence_lists, 25_000),
    Case("> ```", "'> ```\\n' x n: unclosed fences in one quote", _fence_quotes, 25_000),
    Case("fences-varied", "fence openers of varied char and length", _fence_varied, 25_000),
    Case("<div><!--", "HTML blocks with unclosed comments", _unclosed_html, 25_000),
)


def _time_scan(text: str) -> float:
    from mfls.syntax.scanner import scan

    best = float("inf")
    budget = time.process_time() + 2.0
    for _ in range(5):
        began = time.process_time()
        scan(text)
        best = min(best, time.process_time() - began)
        if time.process_time() > budget:
            break
    return best


def _time_edit(text: str) -> float:
    from mfls.syntax.document import Document

    doc = Document(text)
    doc.result()
    middle = len(text) // 2
    best = float("inf")
    budget = time.process_time() + 2.0
    for _ in range(5):
        began = time.process_time()
        doc = doc.edited(middle, middle, "x")
        doc.result()
        best = min(best, time.process_time() - began)
        if time.process_time() > budget:
            break
    return best


def _child(
    case_name: str,
    n: int,
    edit: bool,
    out: multiprocessing.Queue,  # type: ignore[type-arg]
) -> None:
    case = next(c for c in CASES if c.name == case_name)
    text = case.build(n)
    out.put((len(text), _time_edit(text) if edit else _time_scan(text)))


def measure(case: Case, n: int, timeout: float, edit: bool = False) -> tuple[int, float | None]:
    """(input length, best scan or edit time) of `case` at size n; time None on timeout."""
    queue: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
    process = multiprocessing.Process(target=_child, args=(case.name, n, edit, queue))
    process.start()
    process.join(timeout)
    if process.is_alive():
        process.kill()
        process.join()
        return len(case.build(n)), None
    return queue.get(timeout=5)


def exponent(sizes: list[int], times: list[float]) -> float:
    """The least-squares slope of log(time) against log(size)."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(max(t, 1e-6)) for t in times]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    spread = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / spread


def verdict(
    sizes: list[int], times: list[float | None], limit: float
) -> tuple[list[str], str, str]:
    """Ratios per doubling, the fitted exponent, and linear / SUPERLINEAR / TIMEOUT."""
    ratios = [
        "-" if a is None or b is None else f"{b / a:.2f}" if a > 0 else "inf"
        for a, b in itertools.pairwise(times)
    ]
    if any(t is None for t in times):
        return ratios, "-", "TIMEOUT"
    measured = [t for t in times if t is not None]
    k = exponent(sizes, measured)
    slow = measured[-1] >= MIN_MEASURABLE and k > limit
    return ratios, f"{k:.2f}", "SUPERLINEAR" if slow else "linear"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="case names to run")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per size")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every n")
    parser.add_argument("--limit", type=float, default=1.3, help="largest linear exponent")
    parser.add_argument("--steps", type=int, default=4, help="sizes per case (doubling)")
    parser.add_argument("--edit", action="store_true", help="time one keystroke, not a scan")
    args = parser.parse_args(argv)
    cases = [c for c in CASES if not args.only or c.name in args.only]
    header = f"{'case':14} {'chars at n..':>12} " + " ".join(
        f"{'t(' + str(2**k) + 'n) s':>10}" for k in range(args.steps)
    )
    print(header + "   ratios per doubling     k  verdict")
    failures = 0
    for case in cases:
        n = max(1, int(case.base * args.scale))
        sizes = [n * 2**k for k in range(args.steps)]
        times: list[float | None] = []
        first_len = 0
        for k, size in enumerate(sizes):
            length, took = measure(case, size, args.timeout, args.edit)
            if k == 0:
                first_len = length
            times.append(took)
            if took is None:
                times.extend([None] * (len(sizes) - k - 1))
                break
        ratios, k, worst = verdict(sizes, times, args.limit)
        failures += worst != "linear"
        cells = " ".join(f"{'timeout' if x is None else f'{x:.4f}':>10}" for x in times)
        print(f"{case.name:14} {first_len:>12} {cells}   {' '.join(ratios):21} {k:>4}  {worst}")
        sys.stdout.flush()
    print(f"\n{len(cases) - failures} of {len(cases)} cases linear")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
