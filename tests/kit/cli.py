"""The one way a test runs the command line as a user does: `python -m mfls ARGS` in a
child process, its output captured.

`mfls` decodes the output as UTF-8 text; `mfls_bytes` keeps the bytes (for output that
need not be UTF-8, or whose line ends are the subject). `code` is Python run first in the
same process before `main` (a test hook, e.g. a patched module). The child runs this
checkout's mfls: the checkout leads its `PYTHONPATH`, whatever else is installed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

Arg = str | bytes | os.PathLike[str]
CHECKOUT = str(Path(__file__).resolve().parents[2])
TIMEOUT = 280.0  # within pytest-timeout's 300 s, so that the hang is reported as this call


def command(*args: Arg, code: str | None = None) -> list[Arg]:
    """The child's argv: `python -m mfls ARGS`, or `python -c CODE+main ARGS`."""
    if code is None:
        return [sys.executable, "-m", "mfls", *args]
    return [sys.executable, "-c", code + "\nsys.exit(main(sys.argv[1:]))", *args]


def environment(env: Mapping[str, str] | None = None) -> dict[str, str]:
    """`env` (this process's environment by default) with the checkout first on
    `PYTHONPATH`."""
    base = dict(os.environ if env is None else env)
    paths = [CHECKOUT, *(p for p in base.get("PYTHONPATH", "").split(os.pathsep) if p)]
    return {**base, "PYTHONPATH": os.pathsep.join(paths)}


def mfls(
    *args: Arg,
    cwd: str | os.PathLike[str] | None = None,
    input: str | None = None,
    env: Mapping[str, str] | None = None,
    code: str | None = None,
    timeout: float = TIMEOUT,
) -> subprocess.CompletedProcess[str]:
    """`python -m mfls ARGS`, its output decoded as UTF-8."""
    return subprocess.run(
        command(*args, code=code),
        capture_output=True,
        text=True,
        encoding="utf-8",
        input=input,
        cwd=cwd,
        env=environment(env),
        timeout=timeout,
    )


def mfls_bytes(
    *args: Arg,
    cwd: str | os.PathLike[str] | None = None,
    input: bytes | None = None,
    env: Mapping[str, str] | None = None,
    code: str | None = None,
    timeout: float = TIMEOUT,
) -> subprocess.CompletedProcess[bytes]:
    """`python -m mfls ARGS`, its output as bytes."""
    return subprocess.run(
        command(*args, code=code),
        capture_output=True,
        input=input,
        cwd=cwd,
        env=environment(env),
        timeout=timeout,
    )
