"""Changing documents: prepareRename, rename and code actions, as workspace edits.

The logic lives in `mfls.features.rename` and `mfls.features.code_actions`; a feature
that declines returns a `Refusal`, which the handler returns as it is (the protocol
answers it with an error).

Merging two keys: a rename onto a key the course already uses is refused, and the
refusal points to the code action "Merge key “old” into “new”". Nothing is remembered
between the two requests: when the client asks for refactorings explicitly (`only`
names `refactor`, `refactor.rewrite` or the merge kind), every other key of the course
is offered as a merge target; otherwise only the near miss of the key is.

A rename is applied at once (its annotation never asks for confirmation); the warning
that answers stored under the old key do not follow is a `window/showMessage` warning
sent right after the answer, so it reaches the author without holding the edit back.

A rename's record (`mfls.features.rename_record`) is kept pending by the server and
appended to the course's `.mfls/renames.jsonl` once every document it edits is seen
holding its new text (`MflsServer.observe_renames`): the client may never apply an edit.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import uuid
from collections.abc import Mapping, Sequence

from lsprotocol import types as t

from mfls import __version__
from mfls.features import code_actions as ca
from mfls.features import course_rename as cr
from mfls.features import rename as rn
from mfls.features import rename_record as rr
from mfls.features.refusal import Refusal
from mfls.lsp import from_proto, to_proto
from mfls.lsp.effects import MessageAfterAnswer, Outcome, WatchRename, with_copies
from mfls.lsp.files import Files
from mfls.lsp.logs import LOGGER_NAME
from mfls.lsp.snapshot import Snapshot
from mfls.syntax.keys import check_new_key
from mfls.text.edits import apply_changes
from mfls.text.line_index import Encoding, LineIndex
from mfls.workspace.edit_basis import NO_COPIES
from mfls.workspace.index import CourseSnapshot

log = logging.getLogger(LOGGER_NAME)

ACTION_KINDS = (
    t.CodeActionKind.QuickFix.value,
    ca.MERGE,
    ca.CONVERT_LEGACY,
    ca.CONVERT_LEGACY_COURSE,
    ca.PAD_MARKERS,
    ca.PAD_MARKERS_COURSE,
)
CODE_ACTION_OPTIONS = t.CodeActionOptions(code_action_kinds=list(ACTION_KINDS))
NOT_INDEXED = Refusal("This document is not part of any indexed course yet.")


def _target(
    snap: Snapshot, document: t.TextDocumentIdentifier, position: t.Position
) -> tuple[from_proto.Cursor, rn.RenameTarget] | Refusal:
    """The cursor and the key under it that a rename would change, or why not."""
    at = snap.cursor(document.uri, position)
    if at is None:
        return NOT_INDEXED
    target = rn.prepare_rename(snap.workspace, at.uri, at.offset, snap.language)
    return target if isinstance(target, Refusal) else (at, target)


def prepare_rename(
    snap: Snapshot, params: t.PrepareRenameParams
) -> t.PrepareRenamePlaceholder | Refusal:
    found = _target(snap, params.text_document, params.position)
    if isinstance(found, Refusal):
        return found
    at, target = found
    return to_proto.rename_placeholder(snap.convert, at.index, target)


def rename(snap: Snapshot, files: Files, params: t.RenameParams) -> Outcome | Refusal | None:
    """The rename of the key under the cursor, computed from each closed document's
    current bytes (`Workspace.edit_basis`), one edit per file; refused, like
    `mfls rename`, when a course member cannot be used or a rename journal is pending.
    The rename is watched until applied (`MflsServer.observe_renames`), and the warning
    about stored answers follows the answer. The documents read again go to the index
    as an effect (`effects.with_copies`)."""
    found = _target(snap, params.text_document, params.position)
    if isinstance(found, Refusal):
        return found
    target = found[1]
    course = snap.workspace.courses[target.course_id]
    if course.root is not None:
        pending = files.pending_journal(course.root)
        if pending is not None:
            return Refusal(pending, old_key=target.key)
    uris = [o.uri for o in course.occurrences(target.key)]
    basis = files.edit_basis(course.id, uris)
    if basis.unusable:
        listed = files.unusable_members(course.root or "", basis.unusable)
        return with_copies(cr.unusable_members_refusal(target.key, listed), basis.copies)
    fresh = basis.snapshot.courses.get(course.id)
    if fresh is None:
        return with_copies(NOT_INDEXED, basis.copies)
    change = rn.rename_key(fresh, target.key, params.new_name, language=snap.language)
    if isinstance(change, Refusal):
        return with_copies(change, basis.copies)
    change = without_aliases(change, basis.aliases)
    if not change.documents:
        return with_copies(None, basis.copies)
    log.info("rename: %d markers in %d documents", change.markers, len(change.documents))
    edit = snap.edits().edit(change)
    if isinstance(edit, Refusal):
        return with_copies(edit, basis.copies)
    new_key = check_new_key(params.new_name)[0] or params.new_name
    warning = rn.stored_answers_warning(target.key, new_key, snap.language)
    effects: tuple[WatchRename | MessageAfterAnswer, ...] = (
        MessageAfterAnswer(t.MessageType.Warning, warning),
    )
    if fresh.root is not None:
        effects = (WatchRename(_pending(fresh, change, target.key, new_key)), *effects)
    return with_copies(edit, basis.copies, *effects)


def _pending(
    course: CourseSnapshot, change: rn.WorkspaceChange, old_key: str, new_key: str
) -> rr.PendingRename:
    """The record of `change`, to be written once every document is seen holding its
    new text: the server answers with an edit, and only the client applies it."""
    root = course.root or ""
    files = rr.pending_files(
        [
            (doc.uri, doc.path or doc.uri, doc.text, apply_changes(doc.text, doc.changes))
            for doc in change.documents
        ],
        root,
    )
    record = rr.RenameRecord(
        record_id=str(uuid.uuid4()),
        course_root=root,
        course_name=course.config.name,
        old_key=old_key,
        new_key=new_key,
        time="",
        files=rr.pending_record_files(files),
        tool=rr.SERVER_TOOL,
        tool_version=__version__,
        applied=rr.OBSERVED,
    )
    return rr.PendingRename(record, files)


def without_aliases(change: rn.WorkspaceChange, aliases: frozenset[str]) -> rn.WorkspaceChange:
    """`change` without the documents that name a file another document names."""
    if not aliases or not any(d.uri in aliases for d in change.documents):
        return change
    kept = tuple(d for d in change.documents if d.uri not in aliases)
    dropped = sum(len(d.changes) for d in change.documents if d.uri in aliases)
    return dataclasses.replace(change, documents=kept, markers=change.markers - dropped)


def code_action(
    snap: Snapshot, files: Files, params: t.CodeActionParams
) -> Outcome | Refusal | None:
    span = snap.span(params.text_document.uri, params.range)
    if span is None:
        return None
    only = params.context.only
    course_wide = bool(only) and any(
        _kind_wanted(kind, only) for kind in (ca.CONVERT_LEGACY_COURSE, ca.PAD_MARKERS_COURSE)
    )
    snapshot = snap.workspace
    course = snapshot.course_for(span.uri)
    targets: Mapping[str, Sequence[str]] = {}
    if course is not None and bool(only) and _kind_wanted(ca.MERGE, only):
        keys = _merge_targets(course)
        targets = dict.fromkeys(keys, keys)
    actions = functools.partial(
        ca.code_actions,
        uri=span.uri,
        start=span.start,
        end=span.end,
        course_wide=course_wide,
        merge_targets=targets,
        language=snap.language,
    )
    found = actions(snapshot)
    closed = _closed_documents(found)
    aliases: frozenset[str] = frozenset()
    copies = NO_COPIES
    if closed and course is not None:
        # Actions that edit closed documents are computed again from their bytes on disk.
        basis = files.edit_basis(course.id, closed)
        aliases, copies = basis.aliases, basis.copies
        found = actions(basis.snapshot)
        if basis.unusable:
            listed = files.unusable_members(course.root or "", basis.unusable)
            log.warning(
                "code actions: left out the ones editing other documents: %s",
                cr.unusable_members_refusal("", listed).message,
            )
            found = [a for a in found if not _closed_documents([a])]
    builder = snap.edits()
    result: list[t.CodeAction] = []
    watches: list[WatchRename] = []
    for action in found:
        if not _kind_wanted(action.kind, only):
            continue
        if action.snippet_change is not None and builder.snippets:
            edit = builder.edit(without_aliases(action.snippet_change, aliases), snippet=True)
        else:
            edit = builder.edit(without_aliases(action.change, aliases))
        if isinstance(edit, Refusal):
            return with_copies(edit, copies)
        fixed = _fixed(span.index, snap.caps.encoding, params.context.diagnostics, action)
        result.append(to_proto.code_action(action, edit, fixed))
        if action.renames is not None and course is not None and course.root is not None:
            # A rename offered as a fix is recorded, like any rename, once seen applied.
            change = without_aliases(action.change, aliases)
            pending = _pending(course, change, *action.renames)
            watches.append(WatchRename(pending, offered=True))
    return with_copies(result, copies, *watches)


def _closed_documents(actions: Sequence[ca.CodeAction]) -> list[str]:
    """The URIs of closed documents (no buffer version) the actions edit."""
    return list(
        dict.fromkeys(doc.uri for a in actions for doc in a.change.documents if doc.version is None)
    )


def _kind_wanted(kind: str, only: Sequence[str] | None) -> bool:
    if not only:
        return True
    return any(kind == o or kind.startswith(o + ".") for o in only)


def _merge_targets(course: CourseSnapshot) -> tuple[str, ...]:
    """Every key of the course, in a stable order (the feature leaves out the key itself
    and keys the host provides)."""
    return tuple(sorted(course.all_keys()))


def _fixed(
    index: LineIndex,
    encoding: Encoding,
    diagnostics: Sequence[t.Diagnostic],
    action: ca.CodeAction,
) -> list[t.Diagnostic]:
    """The diagnostics of the request that `action` answers."""
    code = action.fixes or action.silences
    if code is None or action.fixes_range is None:
        return []
    fix_start, fix_end = action.fixes_range
    fixed = []
    for diagnostic in diagnostics:
        if diagnostic.code != code:
            continue
        start, end = from_proto.offsets(index, encoding, diagnostic.range)
        if start <= fix_end and fix_start <= end:
            fixed.append(diagnostic)
    return fixed
