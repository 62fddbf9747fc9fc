"""Starting, configuring and stopping: initialize, initialized, settings, workspace
folders, shutdown. MUTATE handlers: `handler(state, plumbing, params)`."""

from __future__ import annotations

import logging
from typing import Any

from lsprotocol import types as t

from mfls import __version__
from mfls.lsp import from_proto
from mfls.lsp.capabilities import Capabilities
from mfls.lsp.logs import LOGGER_NAME, apply_levels
from mfls.lsp.plumbing import Plumbing
from mfls.lsp.settings import SECTION, merge_settings
from mfls.lsp.state import ServerState

log = logging.getLogger(LOGGER_NAME)


def initialize(state: ServerState, plumbing: Plumbing, params: t.InitializeParams) -> None:
    plumbing.started()
    state.caps = Capabilities.read(params.capabilities)
    state.client_locale = params.locale
    apply_settings(state, params.initialization_options)
    state.folders = from_proto.initial_folders(params)
    if state.folders:
        plumbing.expect_courses()
    plumbing.offer(state.caps)
    log.info(
        "mfls %s: %s positions, %s diagnostics",
        __version__,
        state.caps.encoding.value,
        "pull" if state.caps.pull_diagnostics else "push",
    )


async def initialized(state: ServerState, plumbing: Plumbing, params: t.InitializedParams) -> None:
    await pull_configuration(state, plumbing)
    await plumbing.update_watchers()
    await plumbing.index_folders(list(state.folders))


async def did_change_configuration(
    state: ServerState, plumbing: Plumbing, params: t.DidChangeConfigurationParams
) -> None:
    if state.caps.configuration:
        await pull_configuration(state, plumbing)
    else:
        apply_settings(state, params.settings)
    plumbing.diagnostics_changed()


async def did_change_workspace_folders(
    state: ServerState, plumbing: Plumbing, params: t.DidChangeWorkspaceFoldersParams
) -> None:
    removed = set(from_proto.folder_paths(f.uri for f in params.event.removed))
    added = from_proto.folder_paths(f.uri for f in params.event.added)
    folders = [p for p in state.folders if p not in removed]
    folders += [p for p in added if p not in folders]
    state.folders = folders
    await plumbing.index_folders(folders)


def shutdown(state: ServerState, plumbing: Plumbing, params: Any = None) -> None:
    plumbing.stop_worker()


async def pull_configuration(state: ServerState, plumbing: Plumbing) -> None:
    """Ask the client for the `mfls` section, when it answers `workspace/configuration`."""
    if not state.caps.configuration:
        return
    try:
        values = await plumbing.ask_configuration(
            t.ConfigurationParams(items=[t.ConfigurationItem(section=SECTION)])
        )
    except Exception:
        log.warning("workspace/configuration failed; keeping the current settings")
        return
    if values:
        apply_settings(state, values[0] or {})


def apply_settings(state: ServerState, value: Any) -> None:
    """Merge the client's `mfls` settings into the state's; the log levels follow."""
    settings, problems = merge_settings(state.settings, value)
    state.settings = settings
    apply_levels(settings.log_level, settings.trace)
    for problem in problems:
        log.warning("ignored setting %s", problem)
