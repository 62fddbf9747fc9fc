"""Renaming a memory key across one course, and rewriting single markers.

Pure functions of a workspace snapshot: offsets and keys in, plain edits out. The
edits never touch other courses, and never markers in code blocks (the scanner does
not report those at all); markers in raw HTML blocks are literal markers like any other.

How a marker is rewritten (`marker_changes`):
- a marker in surrounding text whose padding is only whitespace is written whole in
  the padded form `{{ key }}`, keeping a legacy `%` (`%{{ key }}`); padding that
  spans lines is joined into one space, which keeps the paragraph;
- a marker whose padding holds anything else (the `>` of a block quote on a later
  line) keeps its layout: only the key's own characters are replaced, since
  rewriting the rest would delete container markers;
- a marker in a literal context (code span, link destination, HTML tag or block, ...)
  keeps its padding too: added spaces could change what that context is.
When only the key is replaced and the new key ends with `}` right before the closing
`}}`, one space is added so the marker still closes after the key.

In a course that targets AI-Shifu's learner page, a binding of a key the page can read is
written as `features/binding_spelling.py` spells it (unpadded `%{{key}}` where remark-flow
0.1.6 is targeted), its `%` added where it lacked one; a binding of a key it cannot read
(a new name the author chose) is written as above.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mfls.features.at_offset import marker_at
from mfls.features.binding_spelling import NO_PAGE, BindingSpelling, spelling_of
from mfls.features.binding_spelling import padded as padded
from mfls.features.messages import EN, say
from mfls.features.refusal import Refusal
from mfls.syntax.keys import check_new_key, trimmed
from mfls.syntax.model import Marker, Role, ScanResult
from mfls.text.edits import TextChange
from mfls.text.lines import line_number
from mfls.workspace.index import CourseSnapshot, DocEntry, WorkspaceSnapshot, relative_path

ANNOTATION_ID = "mfls.storedAnswers"
_PLAIN_PADDING = frozenset(("", " "))
_MAX_LISTED_USES = 5


@dataclass(frozen=True, slots=True)
class RenameTarget:
    """What `prepareRename` answers: the key's range inside the braces, and the key."""

    uri: str
    start: int
    end: int
    key: str
    course_id: str


@dataclass(frozen=True, slots=True)
class Annotation:
    """A label and description for every change of an edit. It never asks for
    confirmation: an editor applies the edit at once (VS Code would otherwise open its
    Refactor Preview with every change unticked)."""

    label: str
    description: str


@dataclass(frozen=True, slots=True)
class DocumentChange:
    """Edits of one document. `version` is the open buffer's version, None on disk."""

    uri: str
    path: str | None
    version: int | None
    text: str
    changes: tuple[TextChange, ...]


@dataclass(frozen=True, slots=True)
class WorkspaceChange:
    """A plain workspace edit: per-document changes, and an optional annotation that
    applies to every change."""

    documents: tuple[DocumentChange, ...]
    annotation: Annotation | None = None
    markers: int = 0  # markers the change rewrites or reads (a rename: every use of the key)


@dataclass(frozen=True, slots=True)
class KeyUse:
    """One marker of a key in a course document."""

    entry: DocEntry
    marker: Marker


# Accessors of the index documents, in one place.


def doc_text(entry: DocEntry) -> str:
    return entry.text


def doc_scan(entry: DocEntry) -> ScanResult:
    """The whole scan, blocks included (a closed document is rescanned for it)."""
    return entry.result


def doc_marker_scan(entry: DocEntry) -> ScanResult:
    """Markers, invalid markers and interactions: all the index keeps of a closed document."""
    return entry.marker_scan


def entry_for(snapshot: WorkspaceSnapshot, uri: str) -> tuple[CourseSnapshot, DocEntry] | None:
    return snapshot.entry(uri)


def host_keys(course: CourseSnapshot) -> frozenset[str]:
    return frozenset(course.host.provided_keys) | frozenset(course.config.system_keys)


# Finding markers and key uses.


def key_uses(course: CourseSnapshot, key: str) -> list[KeyUse]:
    """Every reported marker of `key` in the course, in course order: bindings,
    references, legacy bindings and markers of inline literal contexts."""
    docs = course.docs
    uses = [KeyUse(docs[o.uri], o.marker) for o in course.occurrences(key) if o.uri in docs]
    uses.sort(key=lambda u: (u.entry.order, u.entry.uri, u.marker.start))
    return uses


def describe_uses(course: CourseSnapshot, uses: Iterable[KeyUse], language: str = EN) -> str:
    """`lessons/01.md:7 (binding), ...` for a message, at most a few places."""
    listed: list[str] = []
    total = 0
    for use in uses:
        total += 1
        if len(listed) < _MAX_LISTED_USES:
            role = use.marker.role.value
            where = _display_name(course, use.entry)
            listed.append(f"{where}:{line_number(doc_text(use.entry), use.marker.start)} ({role})")
    if total > len(listed):
        listed.append(say(language, "rename.uses.more", count=total - len(listed)))
    return ", ".join(listed)


def _display_name(course: CourseSnapshot, entry: DocEntry) -> str:
    path = entry.path
    if path and course.root and path.startswith(course.root.rstrip("/\\") + "/"):
        return relative_path(path, course.root)
    if path:
        return path
    return entry.uri


# prepareRename.


def prepare_rename(
    snapshot: WorkspaceSnapshot, uri: str, offset: int, language: str = EN
) -> RenameTarget | Refusal:
    """The key under `offset`, or a `Refusal` saying (in `language`) why nothing can be
    renamed."""
    found = entry_for(snapshot, uri)
    if found is None:
        return Refusal(say(language, "rename.not-in-course"))
    course, entry = found
    markers = doc_marker_scan(entry)
    marker = marker_at(markers, offset)
    if marker is None:
        return Refusal(_why_not_here(markers, entry, offset, language))
    if marker.key in host_keys(course):
        return Refusal(_host_key_message(course, marker.key, language), old_key=marker.key)
    return RenameTarget(uri, marker.key_start, marker.key_end, marker.key, course.id)


def _why_not_here(markers: ScanResult, entry: DocEntry, offset: int, language: str) -> str:
    for invalid in markers.invalid:
        if invalid.start <= offset < invalid.end or offset == invalid.end:
            return say(language, "rename.invalid-marker", reason=invalid.reason.value)
    for block in doc_scan(entry).blocks:
        if block.start <= offset <= block.end and block.is_code:
            return say(language, "rename.in-code")
    return say(language, "rename.no-marker")


def _host_key_message(course: CourseSnapshot, key: str, language: str) -> str:
    if key in course.config.system_keys:
        return say(language, "rename.system-key", key=key)
    return say(language, "rename.host-key", key=key, host=course.host.name)


# The new name.

_NAME_PROBLEMS = frozenset(
    {"empty", "line-break", "control-character", "not-utf8", "closing-sequence"}
)
"""The problems of a new name that the catalog words one by one (`rename.name.<problem>`)."""


def validate_new_key(course: CourseSnapshot, name: str, language: str = EN) -> str | Refusal:
    """The new name normalized exactly like a marker body, or a `Refusal` (in `language`)."""
    key, problem = check_new_key(name)
    if key is None:
        if problem in _NAME_PROBLEMS:
            return Refusal(say(language, f"rename.name.{problem}"))
        return Refusal(say(language, "rename.name.invalid", problem=problem))
    for prefix in course.host.reserved_prefixes:
        if key.startswith(prefix):
            return Refusal(
                say(language, "rename.name.reserved-prefix", prefix=prefix, host=course.host.name)
            )
    if key in host_keys(course):
        return Refusal(say(language, "rename.name.host-key", key=key), new_key=key)
    return key


# Rewriting markers.


def can_pad(text: str, marker: Marker) -> bool:
    """True when the marker can be written whole without losing anything but padding."""
    if marker.literal:
        return False
    before = text[marker.opening[1] : marker.key_start]
    after = text[marker.key_end : marker.closing[0]]
    if before in _PLAIN_PADDING and after in _PLAIN_PADDING:
        return True
    return trimmed(before) == "" == trimmed(after)


def is_padded(text: str, marker: Marker) -> bool:
    return text[marker.start : marker.end] == padded(marker.key, marker.legacy)


def marker_changes(
    text: str,
    marker: Marker,
    new_key: str,
    *,
    legacy: bool,
    spelling: BindingSpelling = NO_PAGE,
) -> list[TextChange]:
    """The edits that make `marker` read `new_key` (see the module notes), a binding
    spelled as `spelling` says where the learner page can read it at all."""
    if spelling.for_page and marker.role is Role.BINDING and spelling.writable(new_key):
        return _page_binding_changes(text, marker, new_key, spelling)
    if can_pad(text, marker):
        replacement = padded(new_key, legacy)
        if text[marker.start : marker.end] == replacement:
            return []
        return [TextChange(marker.start, marker.end, replacement)]
    changes: list[TextChange] = []
    if marker.legacy and not legacy:
        changes.append(TextChange(marker.start, marker.start + 1, ""))
    key_text = new_key
    if new_key.endswith("}") and marker.key_end == marker.closing[0]:
        key_text += " "
    if key_text != text[marker.key_start : marker.key_end]:
        changes.append(TextChange(marker.key_start, marker.key_end, key_text))
    return changes


def _page_binding_changes(
    text: str, marker: Marker, new_key: str, spelling: BindingSpelling
) -> list[TextChange]:
    """`marker_changes` of a binding in a course that targets the learner page."""
    if can_pad(text, marker):
        replacement = spelling.binding(new_key, True)
        if text[marker.start : marker.end] == replacement:
            return []
        return [TextChange(marker.start, marker.end, replacement)]
    changes = [] if marker.legacy else [TextChange(marker.start, marker.start, "%")]
    return changes + marker_changes(text, marker, new_key, legacy=True)


# Rename.


def stored_answers_annotation(
    old_key: str, new_key: str, *, merge: bool, language: str = EN
) -> Annotation:
    kind = "rename.merge" if merge else "rename"
    return Annotation(
        label=say(language, f"{kind}.label", old=old_key, new=new_key),
        description=say(language, f"{kind}.description", old=old_key, new=new_key),
    )


def stored_answers_warning(old_key: str, new_key: str, language: str = EN) -> str:
    """What the editor shows after a rename: the point first, then why."""
    return say(language, "rename.stored-answers", old=old_key, new=new_key)


def rename(
    snapshot: WorkspaceSnapshot, uri: str, offset: int, new_name: str, language: str = EN
) -> WorkspaceChange | Refusal:
    """`textDocument/rename`: every occurrence of the key under `offset` in its course."""
    target = prepare_rename(snapshot, uri, offset, language)
    if isinstance(target, Refusal):
        return target
    course = snapshot.courses[target.course_id]
    return rename_key(course, target.key, new_name, language=language)


def rename_key(
    course: CourseSnapshot,
    old_key: str,
    new_name: str,
    *,
    merge: bool = False,
    language: str = EN,
) -> WorkspaceChange | Refusal:
    """Rename `old_key` to the normalized `new_name` in every document of `course`.

    Refuses an invalid new name, a host key, and, unless `merge`, a new key the course
    already uses (a `Refusal` with `conflict` set, naming where). Refusals and the
    change's annotation are worded in `language`.
    """
    if old_key in host_keys(course):
        return Refusal(_host_key_message(course, old_key, language), old_key=old_key)
    new_key = validate_new_key(course, new_name, language)
    if isinstance(new_key, Refusal):
        return new_key
    occurrences = course.occurrences(old_key)
    if not occurrences:
        return Refusal(say(language, "rename.unused", key=old_key))
    if new_key == old_key:
        return WorkspaceChange(documents=(), annotation=None)
    if not merge and course.occurrences(new_key):
        return Refusal(
            say(
                language,
                "rename.conflict",
                new=new_key,
                old=old_key,
                uses=describe_uses(course, key_uses(course, new_key), language),
            ),
            old_key=old_key,
            new_key=new_key,
            conflict=True,
        )
    by_doc: dict[str, list[Marker]] = {}
    for occurrence in occurrences:
        by_doc.setdefault(occurrence.uri, []).append(occurrence.marker)
    docs = course.docs
    spelling = spelling_of(course.config)
    documents: list[DocumentChange] = []
    for doc_uri in sorted(by_doc, key=lambda uri: (docs[uri].order, uri)):
        entry = docs[doc_uri]
        text = entry.text
        changes: list[TextChange] = []
        for marker in sorted(by_doc[doc_uri], key=lambda m: m.start):
            changes.extend(
                marker_changes(text, marker, new_key, legacy=marker.legacy, spelling=spelling)
            )
        if changes:
            documents.append(
                DocumentChange(doc_uri, entry.path, entry.version, text, tuple(changes))
            )
    return WorkspaceChange(
        documents=tuple(documents),
        annotation=stored_answers_annotation(old_key, new_key, merge=merge, language=language),
        markers=len(occurrences),
    )
