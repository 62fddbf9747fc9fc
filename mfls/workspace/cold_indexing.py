"""Cold indexing: every course document of every workspace folder read from disk and
swapped in whole (`index_all`).

The courses of the open documents (and of those `Workspace.prefer` named: a request
waits on them) are read first: when other courses remain, the snapshot is swapped as
soon as those are read and `first_done(roots)` is told their roots, before the rest is
read. Texts are read first, then scanned together (by worker processes when they are
many, `Scanner.many`). File events that come meanwhile are handled at the end
(`FileEvents.indexing_ended`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from mfls.workspace import assembly, planning
from mfls.workspace.disk_record import ReadProblems
from mfls.workspace.index import ScannedDocument
from mfls.workspace.owners import Owners
from mfls.workspace.planning import CoursePlan

log = logging.getLogger("mfls")

PROGRESS_STEP = 100
"""`index_all` reports progress after every this many documents read."""

Progress = Callable[[int, int], None]
Member = tuple[str, str, str]  # uri, path, root


def index_all(
    workspace: Owners,
    progress: Progress | None = None,
    first_done: Callable[[tuple[str, ...]], None] | None = None,
) -> None:
    """Read every course document of `workspace`'s folders from disk, then swap."""
    record, lock = workspace.record, workspace.lock
    with lock:
        folders = workspace.plans.folders
    record.start_walks()
    reads: ReadProblems = {}
    plans: dict[str, CoursePlan] = {}
    for folder in folders:
        plans.update(workspace.plans.plan_folder(folder))
    with lock:
        open_now = [*workspace.open_buffers.mapping, *workspace.preferred]
        first = planning.first_roots(plans, open_now)
    rest = set(plans) - first
    split = first and any(plans[root].members for root in rest)
    phases = [first, rest] if split else [set(plans)]
    wanted = [
        [
            (uri, path, root)
            for root, plan in plans.items()
            if root in roots
            for uri, (path, _, _) in plan.members.items()
        ]
        for roots in phases
    ]
    total = sum(map(len, wanted))
    documents: dict[str, ScannedDocument] = {}
    skipped: set[str] = set()
    done = 0
    for phase, members in enumerate(wanted):
        done = _read_members(workspace, members, documents, skipped, reads, (done, total), progress)
        if phase == 0 and len(phases) > 1:
            with lock:
                others = assembly.disk_documents(workspace.snapshot)
                workspace.reassemble({**others, **documents}, plans)
            if first_done is not None:
                first_done(tuple(sorted(first)))
    if progress is not None and total:
        progress(total, total)
    with lock:
        current = assembly.disk_documents(workspace.snapshot)
        for uri, path, root in (member for members in wanted for member in members):
            if uri in skipped and uri not in workspace.open_buffers:
                if uri in current:
                    documents[uri] = current[uri]
                else:
                    text = record.read(path, root, reads)
                    if text is not None:
                        documents[uri] = workspace.scanner.one(text)
        record.take_reads(reads, plans)
        workspace.preferred.clear()
        workspace.reassemble(documents, plans)


def _read_members(
    workspace: Owners,
    members: list[Member],
    documents: dict[str, ScannedDocument],
    skipped: set[str],
    reads: ReadProblems,
    counts: tuple[int, int],
    progress: Progress | None,
) -> int:
    """Read and scan `members` into `documents`, open ones left out (`skipped`); progress
    counts on from `counts` (done, total); returns done."""
    done, total = counts
    read: dict[str, str] = {}
    for uri, path, root in members:
        if uri in workspace.open_buffers:
            skipped.add(uri)
        else:
            text = workspace.record.read(path, root, reads)
            if text is not None:
                read[uri] = text
    done += len(members) - len(read)
    scanned = workspace.scanner.many(list(read.values()))
    for uri, document in zip(read, scanned, strict=True):
        documents[uri] = document
        done += 1
        if progress is not None and done % PROGRESS_STEP == 0 and done < total:
            progress(done, total)
    return done
