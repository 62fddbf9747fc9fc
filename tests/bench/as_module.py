"""A benchmark that uses the shared test kit (`tests.kit`, a helper of another test
folder) is a module of the checkout: `python3 tests/bench/NAME.py ARGS` runs it again as
`python3 -m tests.bench.NAME ARGS`, the checkout first on `PYTHONPATH`, so the command
the docs show keeps working (a script's own folder is all Python puts on its path)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import NoReturn


def rerun_as_module(script: str) -> NoReturn:
    """Replace this process by `python -m tests.bench.<script's name>` with the same
    arguments, working folder and environment, the checkout added to `PYTHONPATH`."""
    path = Path(script).resolve()
    checkout = str(path.parents[2])
    paths = [checkout, *(p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    argv = [sys.executable, "-m", f"tests.bench.{path.stem}", *sys.argv[1:]]
    sys.stdout.flush()
    os.execve(sys.executable, argv, env)
