"""`Watchers`: the client's file watching (`workspace/didChangeWatchedFiles`), registered
dynamically for the globs the courses need and registered again when those change.

Markdown files and course files are watched anywhere (`WATCH_GLOBS`), plus each course's
own lesson and reference globs (but the exact names of Markdown files, which
`WATCH_GLOBS` watch already: `mfls unpack` lists every lesson).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from lsprotocol import types as t

from mfls.lsp.capabilities import Capabilities
from mfls.lsp.logs import LOGGER_NAME
from mfls.workspace.globs import exact_name
from mfls.workspace.index import WorkspaceSnapshot
from mfls.workspace.uris import path_to_uri

log = logging.getLogger(LOGGER_NAME)

WATCH_GLOBS = (
    "**/*.md",
    "**/*.markdown",
    "**/*.mdflow",
    "**/mfcourse.toml",
    # An AI-Shifu course folder: its structure and sync record change the course.
    "**/structure.json",
    "**/.shifu-sync.json",
)
WATCHED_SUFFIXES = (".md", ".markdown", ".mdflow")

Ask = Callable[[Callable[[Any], Any], Any], Awaitable[Any]]
"""Sends a request to the client and waits for its answer (`MflsServer.ask_client`)."""


def wanted_watchers(snapshot: WorkspaceSnapshot, relative: bool) -> list[t.FileSystemWatcher]:
    """The watchers the courses of `snapshot` need; `relative`: the client takes
    relative patterns (each course's globs under its root)."""
    patterns: list[str | t.RelativePattern] = list(WATCH_GLOBS)
    for course in sorted(snapshot.courses.values(), key=lambda c: c.id):
        if course.root is None:
            continue
        for glob in (*course.config.lessons, *course.config.references):
            name = exact_name(glob)
            if name is not None and name.endswith(WATCHED_SUFFIXES):
                continue
            glob = glob.strip().removeprefix("./").lstrip("/")
            if relative:
                base = path_to_uri(course.root)
                patterns.append(t.RelativePattern(base_uri=base, pattern=glob))
            elif f"**/{glob}" not in patterns and glob not in patterns:
                patterns.append(glob if glob.startswith("**/") else f"**/{glob}")
    return [t.FileSystemWatcher(glob_pattern=pattern) for pattern in patterns]


class Watchers:
    def __init__(
        self, ask: Ask, register: Callable[[Any], Any], unregister: Callable[[Any], Any]
    ) -> None:
        self._ask = ask
        self._register = register
        self._unregister = unregister
        self._registration: str | None = None
        self._watchers: list[t.FileSystemWatcher] = []

    async def update(self, caps: Capabilities, snapshot: WorkspaceSnapshot) -> None:
        """(Re-)register file watching when the wanted globs changed."""
        if not caps.watch_registration:
            return
        watchers = wanted_watchers(snapshot, caps.watch_relative_patterns)
        if watchers == self._watchers:
            return
        method = t.WORKSPACE_DID_CHANGE_WATCHED_FILES
        try:
            if self._registration is not None:
                gone = t.Unregistration(id=self._registration, method=method)
                await self._ask(self._unregister, t.UnregistrationParams(unregisterations=[gone]))
                self._registration = None
            registration_id = f"mfls-watch-{uuid.uuid4()}"
            options = t.DidChangeWatchedFilesRegistrationOptions(watchers=watchers)
            wanted = t.Registration(id=registration_id, method=method, register_options=options)
            await self._ask(self._register, t.RegistrationParams(registrations=[wanted]))
            self._registration = registration_id
            self._watchers = watchers
        except Exception:
            log.warning("the client refused file watching; relying on what it sends")
