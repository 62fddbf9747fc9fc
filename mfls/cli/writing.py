"""What a command writes: one file, or standard output for `-`, by the output rule of
`mfls.disk.outputs` (a refusal is exit status 2, with nothing written)."""

from __future__ import annotations

import sys
from collections.abc import Iterable

from mfls.cli.output import say
from mfls.disk import DiskProblem
from mfls.disk.trees import write_file

STDOUT = "-"
"""The output name meaning standard output, for every command that writes one file."""


def refused(command: str, problem: DiskProblem) -> int:
    """Say why the output was not written; the exit status 2."""
    reason = problem.reason.removesuffix("; nothing was written")
    say(command, f"cannot write {problem.path}: {reason}; nothing was written")
    return 2


def write_output(
    command: str,
    target: str,
    data: bytes,
    *,
    inputs: Iterable[str] = (),
    roots: Iterable[str] = (),
) -> int:
    """`data` to the file `target` (or standard output for `-`), never onto one of the
    `inputs` or into one of the `roots` the command reads: 0 written, 2 refused."""
    if target == STDOUT:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return 0
    problem = write_file(target, data, inputs=inputs, roots=roots)
    return 0 if problem is None else refused(command, problem)
