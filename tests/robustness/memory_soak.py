"""Soaks for the server's memory: many edits, many open/close cycles, RSS sampled between.

Used by `test_robust_memory.py` (a bounded run in CI) and `tests/bench/bench_memory.py`
(the long run). The server is a real `python -m mfls` process spoken to in raw JSON-RPC;
its RSS is read from `/proc/PID/status` (Linux) after a request has been answered, so
that every notification sent before it has been handled.
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.kit.lsp_client import RawServer
from tests.robustness.robust_session import PROBE

TEXT = (
    "# Memory\n\n?[{{ colour }} Red | Blue]\n\n"
    + "".join(f"Paragraph {k} uses {{{{ colour }}}} and {{{{ size {k} }}}}.\n\n" for k in range(40))
    + "Last line with "
    + PROBE
    + ".\n"
)
EDIT_LINE = 4  # "Paragraph 0 uses ..."
URIS = 8  # documents the open/close soak cycles through


@dataclass(frozen=True, slots=True)
class Sample:
    ops: int
    rss_kb: int


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS line")


def uri(k: int) -> str:
    return f"file:///robustness/memory/lesson{k}.md"


def _open(server: RawServer, doc: str, version: int = 1) -> None:
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": doc, "languageId": "markdown", "version": version, "text": TEXT}},
    )


def _edit(server: RawServer, doc: str, version: int) -> None:
    """Type one character at the start of a line, or delete it again: the text comes
    back to `TEXT` after every second edit."""
    start = {"line": EDIT_LINE, "character": 0}
    if version % 2 == 0:
        change: dict[str, Any] = {"range": {"start": start, "end": start}, "text": "x"}
    else:
        end = {"line": EDIT_LINE, "character": 1}
        change = {"range": {"start": start, "end": end}, "text": ""}
    server.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": doc, "version": version}, "contentChanges": [change]},
    )


async def _settled(server: RawServer, doc: str) -> None:
    """Answered only once every notification sent before has been handled."""
    await server.result("textDocument/diagnostic", {"textDocument": {"uri": doc}})


async def soak_edits(server: RawServer, samples: int, per_sample: int) -> list[Sample]:
    doc = uri(0)
    _open(server, doc)
    await _settled(server, doc)
    found = [Sample(0, rss_kb(server.process.pid))]
    version = 1
    for k in range(1, samples + 1):
        for _ in range(per_sample):
            version += 1
            _edit(server, doc, version)
        await _settled(server, doc)
        found.append(Sample(k * per_sample, rss_kb(server.process.pid)))
    return found


async def soak_open_close(server: RawServer, samples: int, per_sample: int) -> list[Sample]:
    found = [Sample(0, rss_kb(server.process.pid))]
    cycle = 0
    for k in range(1, samples + 1):
        for _ in range(per_sample):
            doc = uri(cycle % URIS)
            _open(server, doc)
            server.notify("textDocument/didClose", {"textDocument": {"uri": doc}})
            cycle += 1
        await server.result("workspace/symbol", {"query": "colour"})
        found.append(Sample(k * per_sample, rss_kb(server.process.pid)))
    return found


def theil_sen(samples: Sequence[Sample]) -> float:
    """Median of the slopes between every two samples, in KB per 1,000 operations: a
    line fit that a few jumps of the allocator (an arena mapped at once) do not tilt."""
    slopes = [
        (b.rss_kb - a.rss_kb) / (b.ops - a.ops) * 1000
        for i, a in enumerate(samples)
        for b in samples[i + 1 :]
        if b.ops != a.ops
    ]
    return statistics.median(slopes)


JUMP_KB = 256  # an increment this large, and 5 times the median one, is a one-off jump


def without_jumps(samples: Sequence[Sample], most: int = 2) -> list[Sample]:
    """`samples` with up to `most` one-off jumps taken out (each replaced by the median
    increment). The allocator now and then maps or keeps a megabyte at once (a new arena,
    a dict resized, glibc raising its mmap threshold): a step that a line fit over a short
    run reads as a slope, though the RSS is flat before and after it. A leak grows at
    every sample, so its increments are all alike and none is taken out."""
    steps = [b.rss_kb - a.rss_kb for a, b in itertools.pairwise(samples)]
    if not steps:
        return list(samples)
    typical = statistics.median(steps)
    bar = max(JUMP_KB, 5 * typical)
    jumps = sorted((k for k, d in enumerate(steps) if d > bar), key=lambda k: -steps[k])
    for k in jumps[:most]:
        steps[k] = int(typical)
    rebuilt = [samples[0]]
    for sample, step in zip(samples[1:], steps, strict=True):
        rebuilt.append(Sample(sample.ops, rebuilt[-1].rss_kb + step))
    return rebuilt


def steady_slope(samples: Sequence[Sample]) -> float:
    """The Theil-Sen slope once one-off jumps are taken out, KB per 1,000 operations."""
    return theil_sen(without_jumps(samples))


def least_squares(samples: Sequence[Sample]) -> float:
    """The ordinary least-squares slope, in KB per 1,000 operations."""
    xs = [s.ops for s in samples]
    ys = [s.rss_kb for s in samples]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx * 1000


def rising_steps(samples: Sequence[Sample]) -> int:
    """How many samples are above the one before."""
    return sum(1 for a, b in itertools.pairwise(samples) if b.rss_kb > a.rss_kb)
