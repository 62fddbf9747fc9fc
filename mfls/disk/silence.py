"""Standard output and error sent nowhere (`os.devnull`), for a process that must write
nothing: a forked copy of `mfls check` (`workspace.twins`)."""

from __future__ import annotations

import os
import sys


def silence_standard_streams() -> None:
    """Standard output and error, as files and as Python's streams, go to `os.devnull`."""
    nowhere = os.open(os.devnull, os.O_WRONLY)
    os.dup2(nowhere, 1)
    os.dup2(nowhere, 2)
    os.close(nowhere)
    sys.stdout = sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (the process's)
