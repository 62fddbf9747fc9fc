"""Quick fixes, source actions and the merge refactoring, as plain workspace changes.

Every action is an ordinary edit of markers (or, for an unbound reference, one inserted
interaction); nothing else in any document changes. A binding an action writes is spelled
by `features/binding_spelling.py`: in a course that targets AI-Shifu's learner page, no
action writes a binding the targeted page versions cannot read.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

from mfls.features import page_checks
from mfls.features import rename as rn
from mfls.features.binding_spelling import BindingSpelling, spelling_of
from mfls.features.diagnostics import entry_findings
from mfls.features.facts import CourseFacts, facts_of
from mfls.features.messages import EN, say
from mfls.features.refusal import Refusal
from mfls.features.rename import DocumentChange, KeyUse, WorkspaceChange
from mfls.features.suppression_fixes import ignore_change, removal
from mfls.syntax.document import Document
from mfls.syntax.model import Block, BlockKind, Marker, Role
from mfls.text.edits import TextChange
from mfls.text.lines import line_start
from mfls.workspace.config import CURRENT
from mfls.workspace.diagnostic_registry import (
    BY_CODE,
    LEGACY_BINDING,
    PAGE_UNREADABLE_BINDING,
    RUNTIME_BINDING_IGNORED,
    UNUSED_SUPPRESSION,
)
from mfls.workspace.index import CourseSnapshot, DocEntry, WorkspaceSnapshot

QUICKFIX = "quickfix"
MERGE = "refactor.rewrite.mfls.mergeKey"
CONVERT_LEGACY = "source.mfls.convertLegacyBindings"
CONVERT_LEGACY_COURSE = "source.mfls.convertLegacyBindings.course"
PAD_MARKERS = "source.mfls.padMarkers"
PAD_MARKERS_COURSE = "source.mfls.padMarkers.course"

_FIRST_LINE_END = re.compile(r"\r\n|\r|\n")
_SNIPPET_SPECIAL = re.compile(r"([\\$}])")


@dataclass(frozen=True, slots=True)
class CodeAction:
    """One action. `snippet_change`, when set, is `change` written as a snippet (for
    clients that accept snippet edits); `fixes` names the diagnostic code it answers
    and `fixes_range` the marker it answers it on (offsets in the requested document);
    `silences`, instead of `fixes`, the code of the problem at `fixes_range` that a
    suppression comment it writes silences (no fix the registry lists: every code has
    it)."""

    title: str
    kind: str
    change: WorkspaceChange
    snippet_change: WorkspaceChange | None = None
    fixes: str | None = None
    fixes_range: tuple[int, int] | None = None
    preferred: bool = False
    # (old key, new key) of an action that renames a key course-wide: the server records
    # the rename once it sees it applied, as for any rename.
    renames: tuple[str, str] | None = None
    silences: str | None = None


def code_actions(
    snapshot: WorkspaceSnapshot,
    uri: str,
    start: int,
    end: int,
    *,
    course_wide: bool = True,
    merge_targets: Mapping[str, Iterable[str]] | None = None,
    language: str = EN,
) -> list[CodeAction]:
    """Every action for the range `[start, end]` of `uri`, titled in `language`.

    `course_wide=False` leaves out the source actions over the whole course (they read
    every document). `merge_targets` maps a key to keys the author asked to merge it
    into (a refused rename), offered besides the near-miss candidates.
    """
    found = rn.entry_for(snapshot, uri)
    if found is None:
        return []
    course, entry = found
    actions: list[CodeAction] = []
    text = rn.doc_text(entry)
    provided = rn.host_keys(course)
    merge_targets = merge_targets or {}
    for marker in rn.doc_marker_scan(entry).markers:
        if marker.start > end:
            break
        if marker.end < start:
            continue
        actions.extend(
            _marker_actions(course, entry, text, marker, provided, merge_targets, language)
        )
    actions.extend(_suppression_actions(course, entry, start, end, language))
    actions.extend(_document_source_actions(course, entry, language))
    if course_wide:
        actions.extend(_course_source_actions(course, language))
    return actions


# Quick fixes and merges on one marker.


def _marker_actions(
    course: CourseSnapshot,
    entry: DocEntry,
    text: str,
    marker: Marker,
    provided: frozenset[str],
    merge_targets: Mapping[str, Iterable[str]],
    language: str,
) -> Iterator[CodeAction]:
    span = (marker.start, marker.end)
    old_runtime = entry.target != CURRENT
    facts = facts_of(course)
    spelling = spelling_of(course.config)
    yield from _page_fixes(course, entry, marker, language)
    binding = marker.role is Role.BINDING and not marker.legacy
    if old_runtime and binding and not facts.reserved(marker.key) and spelling.writable(marker.key):
        yield _fix(
            RUNTIME_BINDING_IGNORED,
            "action.bind-with",
            say(language, "action.bind-with", marker=spelling.binding(marker.key, True)),
            _single(entry, percent_changes(text, marker, spelling)),
            span,
        )
    # Converting a binding of a key the host reserves (a legacy learner-profile key, a
    # provided key, one with a reserved prefix) would write a reserved-key error; an old
    # runtime and the learner page bind only the legacy form.
    if (
        marker.legacy
        and not old_runtime
        and spelling.converts_legacy
        and not facts.reserved(marker.key)
    ):
        changes = rn.marker_changes(text, marker, marker.key, legacy=False)
        yield from _rewrite(
            LEGACY_BINDING, "action.convert-legacy", marker.key, entry, changes, span, language
        )
    if _paddable(text, marker, spelling):
        yield CodeAction(
            title=say(language, "action.pad", marker=rn.padded(marker.key, marker.legacy)),
            kind=QUICKFIX,
            change=_single(
                entry, rn.marker_changes(text, marker, marker.key, legacy=marker.legacy)
            ),
        )
    if facts.read(marker) and facts.unbound(marker.key):
        yield from _unbound_fixes(course, facts, entry, text, marker, language)
    if marker.literal or marker.key in provided:
        return
    near = facts.near(marker.key)
    candidates = [near.key] if near is not None else []
    targets = [c for c in candidates if c not in provided]
    for extra in merge_targets.get(marker.key, ()):
        if extra not in targets and extra != marker.key and extra not in provided:
            targets.append(extra)
    if course.bindings.get(marker.key):
        # A merge writes the key's bindings under the target's name.
        targets = [target for target in targets if spelling.writable(target)]
    for target in targets:
        change = rn.rename_key(course, marker.key, target, merge=True, language=language)
        if isinstance(change, Refusal):
            continue
        yield CodeAction(
            title=say(language, "action.merge", key=marker.key, target=target),
            kind=MERGE,
            change=change,
        )


def _page_fixes(
    course: CourseSnapshot, entry: DocEntry, marker: Marker, language: str
) -> Iterator[CodeAction]:
    """The fixes of page-unreadable-binding: the binding written in the form every
    targeted page version reads, or, where none reads the key, the key renamed in the
    whole course to a name they read (`features/page_checks.py`)."""
    unread = page_checks.unread_binding_at(course, entry, marker)
    if unread is None or not unread.fix:
        return
    span = (marker.start, marker.end)
    if unread.fix == "form":
        written = spelling_of(course.config).binding(marker.key, True)
        change = _single(entry, [TextChange(marker.start, marker.end, written)])
        title = say(language, "action.page-form", marker=written)
        yield _fix(PAGE_UNREADABLE_BINDING, "action.page-form", title, change, span)
        return
    new_key = page_checks.new_key(course, marker.key)
    renamed = rn.rename_key(course, marker.key, new_key, language=language)
    if isinstance(renamed, Refusal):
        return
    title = say(language, "action.page-rename", key=marker.key, new=new_key)
    action = _fix(PAGE_UNREADABLE_BINDING, "action.page-rename", title, renamed, span)
    yield dataclasses.replace(action, renames=(marker.key, new_key))


def _fix(
    code: str,
    title_id: str,
    title: str,
    change: WorkspaceChange,
    span: tuple[int, int],
    snippet_change: WorkspaceChange | None = None,
    preferred: bool = True,
) -> CodeAction:
    """The quick fix `title_id` of diagnostic `code` on the marker at `span`: one of the
    fixes the registry names for that code."""
    if title_id not in BY_CODE[code].fixes:
        raise ValueError(f"{title_id} is not a fix of {code} in the registry")
    return CodeAction(title, QUICKFIX, change, snippet_change, code, span, preferred)


def _unbound_fixes(
    course: CourseSnapshot,
    facts: CourseFacts,
    entry: DocEntry,
    text: str,
    marker: Marker,
    language: str,
) -> Iterator[CodeAction]:
    """The fixes of a read of an unbound key (unbound-reference or near-miss): every read
    the diagnostic is on gets them, a literal-context one the host substitutes too."""
    span = (marker.start, marker.end)
    code = facts.unbound_code(marker.key)
    near = facts.near(marker.key)
    if near is not None:
        changes = rn.marker_changes(
            text, marker, near.key, legacy=marker.legacy, spelling=spelling_of(course.config)
        )
        yield from _rewrite(code, "action.replace-with", near.key, entry, changes, span, language)
    insertion = _binding_insertion(course, marker.key, spelling_of(course.config))
    if insertion is not None:
        plain, snippet = insertion
        yield _fix(
            code,
            "action.ask-for",
            say(language, "action.ask-for", key=marker.key),
            plain,
            span,
            snippet,
            preferred=near is None,
        )


def _suppression_actions(
    course: CourseSnapshot, entry: DocEntry, start: int, end: int, language: str
) -> Iterator[CodeAction]:
    """ "Ignore this problem here" on each problem in the range, where a suppression
    comment can be written safely (`suppression_fixes.ignore_change`), and the removal of a
    suppression that silences nothing."""
    findings = entry_findings(course, entry, language)
    text = entry.text
    offered: set[tuple[str, int, int]] = set()
    document: Document | None = None
    for item in findings.kept:
        if item.start > end or item.end < start or item.code == UNUSED_SUPPRESSION:
            continue
        if document is None:  # an open document's own, else scanned once for the request
            document = entry.document if isinstance(entry.document, Document) else Document(text)
        change = ignore_change(document, item.start, item.code)
        if change is None or (item.code, change.start, change.end) in offered:
            continue
        offered.add((item.code, change.start, change.end))
        title = say(language, "action.ignore-here", code=item.code)
        fixes = (item.start, item.end)
        change_ = _single(entry, [change])
        yield CodeAction(title, QUICKFIX, change_, fixes_range=fixes, silences=item.code)
    for unused in findings.unused:
        at = unused.directive
        if at.start <= end and start <= at.end:
            title = say(language, "action.remove-suppression")
            removed = _single(entry, [removal(text, unused)])
            span = (at.start, at.end)
            yield _fix(UNUSED_SUPPRESSION, "action.remove-suppression", title, removed, span)


def _rewrite(
    code: str,
    title_id: str,
    key: str,
    entry: DocEntry,
    changes: list[TextChange],
    span: tuple[int, int],
    language: str,
) -> Iterator[CodeAction]:
    """The quick fix `title_id` rewriting the marker at `span` to `{{ key }}` (`changes`),
    if there is anything to change."""
    if changes:
        title = say(language, title_id, marker=rn.padded(key, False))
        yield _fix(code, title_id, title, _single(entry, changes), span)


def _single(entry: DocEntry, changes: list[TextChange]) -> WorkspaceChange:
    return WorkspaceChange(documents=(_doc_change(entry, changes),))


def _doc_change(entry: DocEntry, changes: list[TextChange]) -> DocumentChange:
    return DocumentChange(entry.uri, entry.path, entry.version, rn.doc_text(entry), tuple(changes))


# Asking for an unbound key.


def _binding_insertion(
    course: CourseSnapshot, key: str, spelling: BindingSpelling
) -> tuple[WorkspaceChange, WorkspaceChange] | None:
    """The interaction `?[{{ key }} ...]` inserted before the first use of `key` the host
    substitutes, in course order (lessons first; reference documents only when no lesson
    uses it), as plain text and as a snippet; none when the learner page could not read
    its binding."""
    first = _first_use(course, key)
    if first is None or not spelling.writable(key):
        return None
    entry = first.entry
    text = rn.doc_text(entry)
    block = _block_of(rn.doc_scan(entry).blocks, first.marker.start)
    eol = _line_ending(text)
    # An old target's runtime binds only `%{{key}}`.
    padded_key = spelling.binding(key, entry.target != CURRENT)
    plain_body = f"?[{padded_key} Option A | Option B | ...Other]"
    snippet_key = _SNIPPET_SPECIAL.sub(r"\\\1", padded_key)
    snippet_body = f"?[{snippet_key} ${{1:Option A}} | ${{2:Option B}} | ...${{3:Other}}]"
    if block is not None and block.kind is BlockKind.PARAGRAPH and block.inline:
        at = block.inline[0][0]
        prefix = text[line_start(text, at) : at]
        continuation = "".join(ch if ch == ">" or ch in " \t" else " " for ch in prefix)
        tail = eol + continuation.rstrip(" \t") + eol + continuation
    else:
        at = line_start(text, block.start if block is not None else first.marker.start)
        tail = eol + eol
    return (
        WorkspaceChange(documents=(_doc_change(entry, [TextChange(at, at, plain_body + tail)]),)),
        WorkspaceChange(documents=(_doc_change(entry, [TextChange(at, at, snippet_body + tail)]),)),
    )


def _first_use(course: CourseSnapshot, key: str) -> KeyUse | None:
    first_reference: KeyUse | None = None
    substituted = facts_of(course).substituted
    for use in rn.key_uses(course, key):
        if not substituted(use.marker):
            continue
        if use.entry.kind == "lesson":
            return use
        if first_reference is None:
            first_reference = use
    return first_reference


def _block_of(blocks: Iterable[Block], offset: int) -> Block | None:
    for block in blocks:
        if block.start <= offset <= block.end:
            return block
    return None


def _line_ending(text: str) -> str:
    match = _FIRST_LINE_END.search(text)
    return match.group() if match else "\n"


# Source actions.


def percent_changes(text: str, marker: Marker, spelling: BindingSpelling) -> list[TextChange]:
    """The edits that make the binding `marker` a `%{{key}}` binding."""
    if spelling.for_page:
        return rn.marker_changes(text, marker, marker.key, legacy=True, spelling=spelling)
    if rn.can_pad(text, marker):
        return [TextChange(marker.start, marker.end, spelling.binding(marker.key, True))]
    return [TextChange(marker.start, marker.start, "%")]


def legacy_changes(
    entry: DocEntry, keep: Callable[[str], bool], *, spelling: BindingSpelling
) -> list[TextChange]:
    """Every legacy binding of the document converted to `{{ key }}`, but those of the
    keys `keep` holds (the keys the host reserves: their `{{ key }}` binding is an
    error); none under an old target,
    whose runtime binds only the legacy form, nor for the learner page, which reads
    only that form too."""
    text = rn.doc_text(entry)
    if "%" not in text or entry.target != CURRENT or not spelling.converts_legacy:
        return []
    changes: list[TextChange] = []
    for marker in rn.doc_marker_scan(entry).markers:
        if marker.legacy and not keep(marker.key):
            changes.extend(rn.marker_changes(text, marker, marker.key, legacy=False))
    return changes


def _paddable(text: str, marker: Marker, spelling: BindingSpelling) -> bool:
    """Whether "pad marker" is offered on `marker`: it is not padded yet, padding loses
    nothing, and the learner page (if targeted) still reads it padded."""
    return rn.can_pad(text, marker) and not rn.is_padded(text, marker) and spelling.may_pad(marker)


def padding_changes(entry: DocEntry, spelling: BindingSpelling) -> list[TextChange]:
    """Every marker of the document that can be padded, written `{{ key }}` (but a
    binding the learner page would no longer read)."""
    text = rn.doc_text(entry)
    changes: list[TextChange] = []
    for marker in rn.doc_marker_scan(entry).markers:
        if _paddable(text, marker, spelling):
            changes.extend(rn.marker_changes(text, marker, marker.key, legacy=marker.legacy))
    return changes


def _document_source_actions(
    course: CourseSnapshot, entry: DocEntry, language: str
) -> Iterator[CodeAction]:
    spelling = spelling_of(course.config)
    legacy = legacy_changes(entry, facts_of(course).reserved, spelling=spelling)
    if legacy:
        yield CodeAction(
            say(language, "action.convert-legacy-document"),
            CONVERT_LEGACY,
            _single(entry, legacy),
        )
    padding = padding_changes(entry, spelling)
    if padding:
        yield CodeAction(say(language, "action.pad-document"), PAD_MARKERS, _single(entry, padding))


def _course_change(
    course: CourseSnapshot, changes_of: Callable[[DocEntry], list[TextChange]]
) -> WorkspaceChange:
    documents = []
    for entry in sorted(course.docs.values(), key=lambda e: (e.order, e.uri)):
        changes = changes_of(entry)
        if changes:
            documents.append(_doc_change(entry, changes))
    return WorkspaceChange(documents=tuple(documents))


def _course_source_actions(course: CourseSnapshot, language: str) -> Iterator[CodeAction]:
    keep = facts_of(course).reserved
    spelling = spelling_of(course.config)
    legacy = _course_change(course, lambda entry: legacy_changes(entry, keep, spelling=spelling))
    if legacy.documents:
        yield CodeAction(
            say(language, "action.convert-legacy-course"),
            CONVERT_LEGACY_COURSE,
            legacy,
        )
    padding = _course_change(course, lambda entry: padding_changes(entry, spelling))
    if padding.documents:
        yield CodeAction(say(language, "action.pad-course"), PAD_MARKERS_COURSE, padding)
