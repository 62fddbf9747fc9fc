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
- `locale`: "auto" (default), "en" or "zh-CN"; the language of diagnostics, hovers and
  code action titles. "auto" follows the client's `locale` (sent in `initialize`): any
  Chinese locale gives Simplified Chinese, any other English.
- `diagnostics.closedDocuments`: true (default) or false; diagnostics of documents that
  are not open: published to push clients, reported by `workspace/diagnostic` to pull
  clients. False: only open documents (and course files) get them.

Each key is structured on its own by a cattrs converter with one strict hook per value
type, so a bad value is reported (naming the key, what it expects and what came) and the
other keys still apply. Unknown keys are ignored.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, NewType

import cattrs

from mfls.features.messages import AUTO, LANGUAGES

SECTION = "mfls"

_LEVELS = {
    "error": logging.ERROR,
    "warning": logging.WARNING,
    "warn": logging.WARNING,
    "info": logging.INFO,
    "debug": logging.DEBUG,
}
_CLIENT_TRACE = {"off": False, "messages": True, "verbose": True}


@dataclass(frozen=True)
class Settings:
    log_level: int = logging.WARNING
    diagnostic_delay: float = 0.15  # seconds
    trace: bool = False
    locale: str = AUTO  # AUTO or one of messages.LANGUAGES
    closed_documents: bool = True
    inlay_hints: bool = True


LogLevel = NewType("LogLevel", int)
Delay = NewType("Delay", float)  # seconds
Trace = NewType("Trace", object)  # bool, or ClientTrace for VS Code's object form
Locale = NewType("Locale", str)
_LOCALES = {name.lower(): name for name in (AUTO, *LANGUAGES)}
ClosedDocuments = NewType("ClosedDocuments", object)  # bool, or None: the key is absent
InlayHints = NewType("InlayHints", object)  # bool, or None: the key is absent


@dataclass(frozen=True)
class ClientTrace:
    """VS Code's `trace.server`: None when the object has no `server`."""

    trace: bool | None


class BadValue(ValueError):
    """A setting's value that does not fit; `path` names it below `mfls`, the message
    says what it expects."""

    def __init__(self, expected: str, path: str = "") -> None:
        super().__init__(expected)
        self.expected = expected
        self.path = path


def _log_level(value: Any, _: type) -> LogLevel:
    if isinstance(value, str) and value.lower() in _LEVELS:
        return LogLevel(_LEVELS[value.lower()])
    raise BadValue(f"expected one of {', '.join(_LEVELS)}, got {value!r}")


def _delay(value: Any, _: type) -> Delay:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 5000:
        return Delay(value / 1000)
    raise BadValue(f"expected milliseconds 0-5000, got {value!r}")


def _trace(value: Any, _: type) -> Trace:
    if isinstance(value, bool):
        return Trace(value)
    if isinstance(value, Mapping):
        if "server" not in value:
            return Trace(ClientTrace(None))
        server = value["server"]
        if isinstance(server, str) and server in _CLIENT_TRACE:
            return Trace(ClientTrace(_CLIENT_TRACE[server]))
        raise BadValue(
            f"expected one of {', '.join(_CLIENT_TRACE)}, got {server!r}", path=".server"
        )
    raise BadValue(f"expected true or false, got {value!r}")


def _locale(value: Any, _: type) -> Locale:
    if isinstance(value, str) and value.lower() in _LOCALES:
        return Locale(_LOCALES[value.lower()])
    raise BadValue(f"expected one of {', '.join(_LOCALES.values())}, got {value!r}")


def _diagnostics(value: Any, _: type) -> ClosedDocuments:
    if not isinstance(value, Mapping):
        raise BadValue(f"expected an object, got {value!r}")
    if "closedDocuments" not in value:
        return ClosedDocuments(None)
    closed = value["closedDocuments"]
    if isinstance(closed, bool):
        return ClosedDocuments(closed)
    raise BadValue(f"expected true or false, got {closed!r}", path=".closedDocuments")


def _inlay_hints(value: Any, _: type) -> InlayHints:
    if not isinstance(value, Mapping):
        raise BadValue(f"expected an object, got {value!r}")
    if "enabled" not in value:
        return InlayHints(None)
    enabled = value["enabled"]
    if isinstance(enabled, bool):
        return InlayHints(enabled)
    raise BadValue(f"expected true or false, got {enabled!r}", path=".enabled")


_converter = cattrs.Converter()
_converter.register_structure_hook(LogLevel, _log_level)
_converter.register_structure_hook(Delay, _delay)
_converter.register_structure_hook(Trace, _trace)
_converter.register_structure_hook(Locale, _locale)
_converter.register_structure_hook(ClosedDocuments, _diagnostics)
_converter.register_structure_hook(InlayHints, _inlay_hints)


_WIRE_TYPES: Mapping[str, Any] = {
    "logLevel": LogLevel,
    "diagnosticDelay": Delay,
    "trace": Trace,
    "locale": Locale,
    "diagnostics": ClosedDocuments,
    "inlayHints": InlayHints,
}
"""The section as it arrives: camelCase key -> the type its value structures to."""
_FIELD_OF = {
    "logLevel": "log_level",
    "diagnosticDelay": "diagnostic_delay",
    "trace": "trace",
    "locale": "locale",
    "diagnostics": "closed_documents",
    "inlayHints": "inlay_hints",
}


def section_of(value: Any) -> Mapping[str, Any]:
    """The `mfls` section of an options object, or the object itself when it already is one."""
    if not isinstance(value, Mapping):
        return {}
    inner = value.get(SECTION)
    return inner if isinstance(inner, Mapping) else value


def merge_settings(base: Settings, value: Any) -> tuple[Settings, list[str]]:
    """`base` with the recognised keys of `value` applied; problems are returned, not raised."""
    section = section_of(value)
    changes: dict[str, Any] = {}
    problems: list[str] = []
    for key, wire_type in _WIRE_TYPES.items():
        if key not in section:
            continue
        try:
            structured = _converter.structure(section[key], wire_type)
        except BadValue as bad:
            problems.append(f"{SECTION}.{key}{bad.path}: {bad.expected}")
            continue
        if isinstance(structured, ClientTrace):
            if structured.trace is None:
                continue
            structured = structured.trace
        if structured is None:
            continue
        changes[_FIELD_OF[key]] = structured
    return replace(base, **changes), problems
