"""How busy the machine is: Linux's count of the threads running or ready to run now,
read from /proc/loadavg (None where there is no such file or it cannot be read)."""

from __future__ import annotations

LOADAVG = "/proc/loadavg"


def running_now() -> int | None:
    """The threads running or waiting for a CPU at this instant, this one included."""
    try:
        with open(LOADAVG, "rb") as file:
            fields = file.read(256).split()
        return int(fields[3].split(b"/")[0])
    except (OSError, ValueError, IndexError):
        return None
