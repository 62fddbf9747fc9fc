"""Starting, configuring and stopping: initialize, initialized, settings, workspace
folders, shutdown."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

from lsprotocol import types as t

from mfls import __version__
from mfls.lsp import course_gate, from_proto
from mfls.lsp.capabilities import Capabilities
from mfls.lsp.logs import LOGGER_NAME, ClientLogHandler
from mfls.lsp.server import MflsServer
from mfls.lsp.settings import SECTION

log = logging.getLogger(LOGGER_NAME)


def initialize(ls: MflsServer, params: t.InitializeParams) -> None:
    ls.loop = asyncio.get_running_loop()
    logging.getLogger(LOGGER_NAME).addHandler(ClientLogHandler(ls.client_log))
    ls.state.caps = Capabilities.read(params.capabilities)
    ls.state.client_locale = params.locale
    ls.apply_settings(params.initialization_options)
    ls.state.folders = from_proto.initial_folders(params)
    if ls.state.folders:
        ls.gate.expect()
    ls.offer(ls.caps)
    log.info(
        "mfls %s: %s positions, %s diagnostics",
        __version__,
        ls.caps.encoding.value,
        "pull" if ls.caps.pull_diagnostics else "push",
    )


async def initialized(ls: MflsServer, params: t.InitializedParams) -> None:
    await pull_configuration(ls)
    await ls.update_watchers()
    await _index_folders(ls, list(ls.state.folders))


async def did_change_configuration(ls: MflsServer, params: t.DidChangeConfigurationParams) -> None:
    if ls.caps.configuration:
        await pull_configuration(ls)
    else:
        ls.apply_settings(params.settings)
    ls.diagnostics_changed()


async def did_change_workspace_folders(
    ls: MflsServer, params: t.DidChangeWorkspaceFoldersParams
) -> None:
    removed = set(from_proto.folder_paths(f.uri for f in params.event.removed))
    added = from_proto.folder_paths(f.uri for f in params.event.added)
    folders = [p for p in ls.state.folders if p not in removed]
    folders += [p for p in added if p not in folders]
    ls.state.folders = folders
    await _index_folders(ls, folders)


def shutdown(ls: MflsServer, params: Any = None) -> None:
    ls.stop_worker()


async def pull_configuration(ls: MflsServer) -> None:
    """Ask the client for the `mfls` section, when it answers `workspace/configuration`."""
    if not ls.caps.configuration:
        return
    try:
        values = await ls.ask_client(
            ls.workspace_configuration_async,
            t.ConfigurationParams(items=[t.ConfigurationItem(section=SECTION)]),
        )
    except Exception:
        log.warning("workspace/configuration failed; keeping the current settings")
        return
    if values:
        ls.apply_settings(values[0] or {})


async def _index_folders(ls: MflsServer, folders: list[str]) -> None:
    """Index the folders, the open documents' courses first; the course gate holds what
    depends on a course until it is indexed (`mfls.lsp.course_gate`)."""
    delay = course_gate.index_delay()

    def first_done(roots: tuple[str, ...]) -> None:
        ls.from_thread(ls.courses_known, roots)

    def ended() -> None:
        ls.gate.end(ls.courses.snapshot)

    def job(progress: Callable[[int, int], None]) -> None:
        try:
            if delay:
                time.sleep(delay)
            ls.courses.set_folders(folders)
            ls.courses.index_all(progress, first_done)
        finally:
            # Scheduled before the worker's result reaches the loop: the gate opens
            # before `run_indexing` publishes or asks for a refresh.
            ls.from_thread(ended)

    ls.gate.begin()
    await ls.run_indexing("Indexing MarkdownFlow courses", job)
