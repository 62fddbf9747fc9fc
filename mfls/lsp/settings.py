"""The server's settings: the `mfls` section of the client configuration.

Read from `initializationOptions` (either `{"mfls": {...}}` or the section itself),
then from `workspace/configuration` (section `mfls`), which wins.

- `logLevel`: "error", "warning" (default), "info" or "debug"; mfls's log level on stderr
  and in `window/logMessage`.
- `diagnosticDelay`: milliseconds, 0-5000 (default 150); with push diagnostics, the quiet
  time after the last edit before diagnostics are published.
- `trace`: true or false (default); also log pygls's own protocol messages at `logLevel`.
  VS Code's standard `mfls.trace.server` setting (the client's own message trace) lives in
  the same section, so `trace` may arrive as an object such as `{"server": "off"}`: that
  form is accepted quietly, `server` = "messages" or "verbose" meaning true and "off"
  false; an object without `server` leaves `trace` as it was.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

SECTION = "mfls"

_LEVELS = {
    "error": logging.ERROR,
    "warning": logging.WARNING,
    "warn": logging.WARNING,
    "info": logging.INFO,
    "debug": logging.DEBUG,
}


@dataclass(frozen=True)
class Settings:
    log_level: int = logging.WARNING
    diagnostic_delay: float = 0.15  # seconds
    trace: bool = False


def section_of(value: Any) -> Mapping[str, Any]:
    """The `mfls` section of an options object, or the object itself when it already is one."""
    if not isinstance(value, Mapping):
        return {}
    inner = value.get(SECTION)
    return inner if isinstance(inner, Mapping) else value


def merge_settings(base: Settings, value: Any) -> tuple[Settings, list[str]]:
    """`base` with the recognised keys of `value` applied; problems are returned, not raised."""
    section = section_of(value)
    settings = base
    problems: list[str] = []
    if "logLevel" in section:
        level = section["logLevel"]
        if isinstance(level, str) and level.lower() in _LEVELS:
            settings = replace(settings, log_level=_LEVELS[level.lower()])
        else:
            problems.append(f"mfls.logLevel: expected one of {', '.join(_LEVELS)}, got {level!r}")
    if "diagnosticDelay" in section:
        delay = section["diagnosticDelay"]
        if isinstance(delay, (int, float)) and not isinstance(delay, bool) and 0 <= delay <= 5000:
            settings = replace(settings, diagnostic_delay=delay / 1000)
        else:
            problems.append(f"mfls.diagnosticDelay: expected milliseconds 0-5000, got {delay!r}")
    if "trace" in section:
        trace = section["trace"]
        if isinstance(trace, bool):
            settings = replace(settings, trace=trace)
        elif isinstance(trace, Mapping):
            settings = _client_trace(settings, trace, problems)
        else:
            problems.append(f"mfls.trace: expected true or false, got {trace!r}")
    return settings, problems


_CLIENT_TRACE = {"off": False, "messages": True, "verbose": True}


def _client_trace(settings: Settings, trace: Mapping[str, Any], problems: list[str]) -> Settings:
    """`trace` read from the object form of VS Code's `mfls.trace.server` setting."""
    if "server" not in trace:
        return settings
    server = trace["server"]
    if isinstance(server, str) and server in _CLIENT_TRACE:
        return replace(settings, trace=_CLIENT_TRACE[server])
    problems.append(f"mfls.trace.server: expected one of off, messages, verbose, got {server!r}")
    return settings
