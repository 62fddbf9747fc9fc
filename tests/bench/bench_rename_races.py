"""Long versions of the rename race tests (a table, not a test).

Run: `python3 tests/bench/bench_rename_races.py [--saves N] [--kills N] [--files N]`.
Measured, each with a byte-exact check of every file afterwards:
- saves by another process at random instants (alternately replacing the file and
  writing it in place) while `mfls rename` runs: how often the rename went through and
  how often it was undone; every save must survive;
- kill -9 of `mfls rename` at random instants, then `--resume` or `--undo`
  (alternately): how often the kill left a journal, and in which phase.
CI runs bounded versions in tests/robustness/test_robust_rename_safety.py.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

if not __package__:  # run as a file: again as a module of the checkout (tests.kit)
    from as_module import rerun_as_module

    rerun_as_module(__file__)

from tests.robustness.test_robust_rename_safety import (
    SAVED,
    _run_and_kill,
    make_course,
    on_disk,
    rename,
    renamed,
    start_saver,
)


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    with open(os.devnull, "w") as sink:
        out, err = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = sink
        try:
            yield
        finally:
            sys.stdout, sys.stderr = out, err


def saves(count: int, files: int, pause: str, base: Path) -> Counter[str]:
    os.environ["MFLS_TEST_PAUSE_BEFORE_SWAP"] = pause
    chance = random.Random(1)
    outcomes: Counter[str] = Counter()
    for iteration in range(count):
        root = base / f"save{iteration}"
        original = make_course(root, files)
        victim = f"lesson{chance.randrange(files):02}.md"
        mode = "replace" if iteration % 2 else "in-place"
        saver = start_saver(root, victim, chance.uniform(0, files * float(pause) + 0.05), mode)
        time.sleep(0.05)
        with quiet():
            status = rename(root, "q", "r")
        saver.wait(timeout=60)
        after = on_disk(root)
        others = {k: v for k, v in after.items() if k != victim}
        untouched = {k: v for k, v in original.items() if k != victim}
        ok = after.get(victim) == SAVED and others in (untouched, renamed(untouched))
        outcomes[f"{mode}: {'renamed' if status == 0 else 'undone'}"] += 1
        outcomes["LOST OR HALF RENAMED" if not ok else "byte-exact"] += 1
    os.environ.pop("MFLS_TEST_PAUSE_BEFORE_SWAP")
    return outcomes


def kills(count: int, files: int, base: Path) -> Counter[str]:
    chance = random.Random(2)
    probe = base / "probe"
    make_course(probe, files)
    started = time.monotonic()
    _run_and_kill(probe, 120)
    full = time.monotonic() - started
    outcomes: Counter[str] = Counter()
    for iteration in range(count):
        root = base / f"kill{iteration}"
        original = make_course(root, files)
        _run_and_kill(root, chance.uniform(0.2 * full, full))
        location = root / ".mfls" / "rename-journal.json"
        with quiet():
            if location.exists():
                phase = json.loads(location.read_text() or "{}").get("phase", "?")
                undo = iteration % 2 == 1
                status = rename(root, "--undo" if undo else "--resume")
                if undo and status == 1:
                    undo, status = False, rename(root, "--resume")
                expected = original if undo else renamed(original)
                outcomes[f"journal in phase {phase}"] += 1
                ok = status == 0 and on_disk(root) == expected
            else:
                outcomes["no journal (before or after the run)"] += 1
                ok = on_disk(root) in (original, renamed(original))
        outcomes["byte-exact" if ok else "NOT RECOVERED"] += 1
    return outcomes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--saves", type=int, default=300)
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--files", type=int, default=50)
    parser.add_argument("--pause", default="0.002", help="seconds before each swap")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        base = Path(directory)
        started = time.monotonic()
        rows = [("saves at random instants", saves(args.saves, args.files, args.pause, base))]
        rows.append(("kill -9 at random instants", kills(args.kills, args.files, base)))
        elapsed = time.monotonic() - started
    print("| loop | outcome | count |\n|---|---|---|")
    failed = False
    for name, outcomes in rows:
        for outcome, number in sorted(outcomes.items()):
            print(f"| {name} | {outcome} | {number} |")
            failed |= outcome.isupper()
    print(f"\n{args.files} files per course, {elapsed:.0f} s in all")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
