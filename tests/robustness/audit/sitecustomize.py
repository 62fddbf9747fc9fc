"""Loaded at start-up by a server under audit (PYTHONPATH=this folder, MFLS_AUDIT_LOG=file).

Appends one JSON line per audited event the safety tests care about: files opened, folders
listed, sockets, processes, code compiled. Never writes to stdout.
"""

from __future__ import annotations

import json
import os
import sys

_LOG = os.environ.get("MFLS_AUDIT_LOG")
_WATCHED = (
    "open",
    "os.listdir",
    "os.scandir",
    "socket.",
    "subprocess.Popen",
    "os.system",
    "os.exec",
    "os.posix_spawn",
    "os.spawn",
    "os.fork",
    "pty.spawn",
    "compile",
    "ctypes.dlopen",
    "urllib.Request",
)


def _text(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


def _hook(event: str, args: tuple[object, ...]) -> None:
    if not event.startswith(_WATCHED) or _LOG is None:
        return
    if event == "open" and args and args[0] == _LOG:
        return  # the log's own writes
    first = _text(args[0]) if args else ""
    if event == "compile" and len(args) > 1:
        first = _text(args[0])[:2000]
    record = json.dumps({"event": event, "arg": first}, ensure_ascii=True)
    fd = os.open(_LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, record.encode("ascii") + b"\n")
    finally:
        os.close(fd)


if _LOG is not None:
    sys.addaudithook(_hook)
