"""Bounded memory: the server's RSS stays flat over many edits and open/close cycles.

A bounded run of `memory_soak`'s soaks (the long one is `tests/bench/bench_memory.py`).
RSS is sampled `SAMPLES` times; after a warm-up, and with at most two one-off jumps of the
allocator taken out (`memory_soak.without_jumps`), the Theil-Sen slope (the median slope
between two samples) must stay under `LIMIT_KB` per 1,000 operations. The leak this
guards against (one Future kept per notification) grew 2.0 KB per edit and 5.0 KB per
open/close cycle: 2,000 and 5,000 KB per 1,000. Linux only (RSS comes from /proc).
"""

from __future__ import annotations

import os
import sys

import pytest
from memory_soak import (
    Sample,
    least_squares,
    soak_edits,
    soak_open_close,
    steady_slope,
    theil_sen,
)

from tests.kit.lsp_client import raw_session

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
    pytest.mark.alone,
]

SAMPLES = int(os.environ.get("MFLS_MEMORY_SAMPLES", "25"))
EDITS_PER_SAMPLE = int(os.environ.get("MFLS_MEMORY_EDITS", "200"))
CYCLES_PER_SAMPLE = int(os.environ.get("MFLS_MEMORY_CYCLES", "80"))
WARM_UP = 5  # samples left out of the fit
LIMIT_KB = 250.0  # per 1,000 operations: 0.25 KB each, an eighth of the old leak


def flat(samples: list[Sample]) -> None:
    fitted = samples[WARM_UP:]
    slope = steady_slope(fitted)
    trace = ", ".join(f"{s.ops}:{s.rss_kb}" for s in samples)
    print(
        f"steady {slope:+.1f}, Theil-Sen {theil_sen(fitted):+.1f}, "
        f"least squares {least_squares(fitted):+.1f} KB per 1,000"
    )
    assert slope < LIMIT_KB, f"RSS grows {slope:.0f} KB per 1,000 operations: {trace}"


async def test_rss_stays_flat_over_many_edits() -> None:
    async with raw_session() as server:
        flat(await soak_edits(server, SAMPLES, EDITS_PER_SAMPLE))


async def test_rss_stays_flat_over_many_open_close_cycles() -> None:
    async with raw_session() as server:
        flat(await soak_open_close(server, SAMPLES, CYCLES_PER_SAMPLE))


def test_the_criterion_ignores_one_off_jumps_but_not_a_leak() -> None:
    flat_with_jump = [
        Sample(k * 200, 48000 + (944 if k >= 10 else 0) + k % 2 * 8) for k in range(21)
    ]
    assert theil_sen(flat_with_jump) > LIMIT_KB  # a plain fit would fail it
    assert abs(steady_slope(flat_with_jump)) < 20
    leak = [Sample(k * 200, 48000 + k * 400 + (900 if k == 7 else 0)) for k in range(21)]
    assert steady_slope(leak) > 1900
