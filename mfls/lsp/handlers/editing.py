"""Changing documents: prepareRename, rename and code actions, as workspace edits.

The logic lives in `mfls.features.rename` and `mfls.features.code_actions`; a feature
that declines returns a `Refusal`, which the handler returns as it is (the protocol
answers it with an error).

Merging two keys: a rename onto a key the course already uses is refused, and the
refusal points to the code action "Merge key 'old' into 'new'". Nothing is remembered
between the two requests: when the client asks for refactorings explicitly (`only`
names `refactor`, `refactor.rewrite` or the merge kind), every other key of the course
is offered as a merge target; otherwise only the near miss of the key is.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

from lsprotocol import types as t

from mfls.features import code_actions as ca
from mfls.features import rename as rn
from mfls.features.refusal import Refusal
from mfls.lsp import from_proto, to_proto
from mfls.lsp.logs import LOGGER_NAME
from mfls.lsp.server import MflsServer
from mfls.text.line_index import Encoding, LineIndex
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


def prepare_rename(
    ls: MflsServer, params: t.PrepareRenameParams
) -> t.PrepareRenamePlaceholder | Refusal:
    at = from_proto.cursor(ls.texts, ls.caps.encoding, params.text_document.uri, params.position)
    if at is None:
        return NOT_INDEXED
    target = rn.prepare_rename(ls.courses.snapshot, at.uri, at.offset)
    if isinstance(target, Refusal):
        return target
    return to_proto.rename_placeholder(ls.convert, at.index, target)


def rename(ls: MflsServer, params: t.RenameParams) -> t.WorkspaceEdit | Refusal | None:
    at = from_proto.cursor(ls.texts, ls.caps.encoding, params.text_document.uri, params.position)
    if at is None:
        return NOT_INDEXED
    change = rn.rename(ls.courses.snapshot, at.uri, at.offset, params.new_name)
    if isinstance(change, Refusal):
        return change
    if not change.documents:
        return None
    log.info("rename: %d markers in %d documents", change.markers, len(change.documents))
    return ls.edits().edit(change)


def code_action(ls: MflsServer, params: t.CodeActionParams) -> list[t.CodeAction] | Refusal | None:
    span = from_proto.span(ls.texts, ls.caps.encoding, params.text_document.uri, params.range)
    if span is None:
        return None
    only = params.context.only
    course_wide = bool(only) and any(
        _kind_wanted(kind, only) for kind in (ca.CONVERT_LEGACY_COURSE, ca.PAD_MARKERS_COURSE)
    )
    snapshot = ls.courses.snapshot
    course = snapshot.course_for(span.uri)
    targets: Mapping[str, Sequence[str]] = {}
    if course is not None and bool(only) and _kind_wanted(ca.MERGE, only):
        keys = _merge_targets(course)
        targets = dict.fromkeys(keys, keys)
    found = ca.code_actions(
        snapshot, span.uri, span.start, span.end, course_wide=course_wide, merge_targets=targets
    )
    builder = ls.edits()
    result: list[t.CodeAction] = []
    for action in found:
        if not _kind_wanted(action.kind, only):
            continue
        if action.snippet_change is not None and builder.snippets:
            edit = builder.edit(action.snippet_change, snippet=True)
        else:
            edit = builder.edit(action.change)
        if isinstance(edit, Refusal):
            return edit
        fixed = _fixed(span.index, ls.caps.encoding, params.context.diagnostics, action)
        result.append(to_proto.code_action(action, edit, fixed))
    return result


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
    if action.fixes is None or action.fixes_range is None:
        return []
    fix_start, fix_end = action.fixes_range
    fixed = []
    for diagnostic in diagnostics:
        if diagnostic.code != action.fixes:
            continue
        start, end = from_proto.offsets(index, encoding, diagnostic.range)
        if start <= fix_end and fix_start <= end:
            fixed.append(diagnostic)
    return fixed
