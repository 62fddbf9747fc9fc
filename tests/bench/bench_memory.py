"""The server's memory over a long session: RSS of a real `python -m mfls` process over
20,000 `didChange` edits and over 5,000 open/close cycles. Prints a table and the slopes.

    python3 tests/bench/bench_memory.py [--edits 20000] [--cycles 5000] [--samples 40]

The CI version, `tests/robustness/test_robust_memory.py`, runs the same soaks shorter.
Linux only (RSS comes from /proc).
"""

from __future__ import annotations

import argparse
import asyncio
import time

if not __package__:  # run as a file: again as a module of the checkout (tests.kit)
    from as_module import rerun_as_module

    rerun_as_module(__file__)

from tests.kit.lsp_client import RawServer
from tests.robustness.memory_soak import (
    Sample,
    least_squares,
    rising_steps,
    soak_edits,
    soak_open_close,
    steady_slope,
    theil_sen,
)

WARM_UP = 0.2  # the first fifth of the samples is left out of the fits


def report(title: str, samples: list[Sample], seconds: float) -> None:
    fitted = samples[int(len(samples) * WARM_UP) :]
    print(f"\n{title} ({seconds:.1f} s)")
    print(f"{'ops':>8} {'RSS KB':>9} {'delta':>7}")
    for before, sample in zip([samples[0], *samples], samples, strict=False):
        print(f"{sample.ops:>8} {sample.rss_kb:>9} {sample.rss_kb - before.rss_kb:>+7}")
    print(
        f"slope after warm-up: without one-off jumps {steady_slope(fitted):+.1f}, "
        f"Theil-Sen {theil_sen(fitted):+.1f} KB per 1,000, "
        f"least squares {least_squares(fitted):+.1f} KB per 1,000; "
        f"{rising_steps(fitted)} of {len(fitted) - 1} steps rise; "
        f"total {samples[-1].rss_kb - samples[0].rss_kb:+d} KB"
    )


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=20_000)
    parser.add_argument("--cycles", type=int, default=5_000)
    parser.add_argument("--samples", type=int, default=40)
    args = parser.parse_args()
    for title, soak, count in (
        ("didChange edits", soak_edits, args.edits),
        ("didOpen/didClose cycles", soak_open_close, args.cycles),
    ):
        server = await RawServer.start()
        try:
            await server.initialize()
            started = time.perf_counter()
            samples = await soak(server, args.samples, max(1, count // args.samples))
            report(title, samples, time.perf_counter() - started)
        finally:
            await server.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
