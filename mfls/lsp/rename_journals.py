"""The editor's renames, recorded once applied: each rename the server answered is kept
pending (`ServerState.pending_renames`) and its record appended to the course's
`.mfls/renames.jsonl` once every document it edits is seen holding its new text (in an
open buffer, or on disk as the watcher reported it): the client may never apply an edit.
The appends run on the worker."""

from __future__ import annotations

import datetime
import logging
from collections.abc import Iterable

from mfls import disk
from mfls.features import rename_record as rr
from mfls.lsp.logs import LOGGER_NAME
from mfls.lsp.state import ServerState
from mfls.lsp.worker import Worker

log = logging.getLogger(LOGGER_NAME)


def observe_renames(state: ServerState, worker: Worker) -> None:
    """Append the record of each rename whose documents now all hold their new text."""
    now = rr.utc_time(datetime.datetime.now(datetime.timezone.utc))
    snapshot = state.workspace.snapshot

    def indexed_text(uri: str) -> str | None:
        found = snapshot.entry(uri)
        return None if found is None else found[1].text

    state.pending_renames, done = state.pending_renames.observed(indexed_text, now)
    if done and worker.submit(lambda: append_records(done)) is None:
        append_records(done)


def append_records(records: Iterable[rr.RenameRecord]) -> None:
    """Append each record to its course's `.mfls/renames.jsonl` (on the worker)."""
    for record in records:
        location = rr.records_path(record.course_root)
        problems = disk.append_line(location, rr.record_line(record), record.course_root)
        if problems:
            log.warning("rename not recorded: %s: %s", problems[0].shown, problems[0].reason)
        else:
            log.info("rename of %r to %r recorded in %s", record.old_key, record.new_key, location)
