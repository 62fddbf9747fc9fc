"""LSP handlers for rename and code actions: positions in, workspace edits out.

`register(server)` adds `textDocument/prepareRename`, `textDocument/rename` and
`textDocument/codeAction` to an `MflsServer`. The logic lives in
`mfls.features.rename` and `mfls.features.code_actions`; this module converts offsets
to the negotiated position encoding and plain changes to `WorkspaceEdit`s.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from lsprotocol import types as t
from pygls.exceptions import JsonRpcException

from mfls.features import code_actions as ca
from mfls.features import rename as rn
from mfls.features.refusal import Refusal
from mfls.lsp.logs import LOGGER_NAME
from mfls.lsp.positions import Encoding, LineIndex, units
from mfls.lsp.protocol import capability
from mfls.workspace.uris import canonical_uri

if TYPE_CHECKING:
    from mfls.server import MflsServer

log = logging.getLogger(LOGGER_NAME)

REQUEST_FAILED = int(t.LSPErrorCodes.RequestFailed)
CONTENT_MODIFIED = int(t.LSPErrorCodes.ContentModified)
ACTION_KINDS = (
    t.CodeActionKind.QuickFix.value,
    ca.MERGE,
    ca.CONVERT_LEGACY,
    ca.CONVERT_LEGACY_COURSE,
    ca.PAD_MARKERS,
    ca.PAD_MARKERS_COURSE,
)
_MAX_MERGE_REQUESTS = 32


class _Refused(JsonRpcException):
    CODE = REQUEST_FAILED


class _Positions:
    """Offsets -> LSP positions of one text, for offsets asked in ascending order.

    Counts line endings between consecutive offsets instead of indexing the whole text,
    which matters when one rename touches thousands of closed documents."""

    def __init__(self, text: str, encoding: Encoding) -> None:
        self.text = text
        self.encoding = encoding
        self._offset = 0
        self._line = 0
        self._lf = "\n" in text
        self._cr = "\r" in text

    def line_character(self, offset: int) -> tuple[int, int]:
        text = self.text
        offset = min(max(offset, 0), len(text))
        if offset < self._offset:
            self._offset, self._line = 0, 0
        low = self._offset
        if self._cr:
            self._line += (
                text.count("\n", low, offset)
                + text.count("\r", low, offset)
                - text.count("\r\n", low, offset)
            )
            if 0 < offset < len(text) and text[offset - 1] == "\r" and text[offset] == "\n":
                offset -= 1  # between CR and LF: the end of the line
                self._line -= 1
        elif self._lf:
            self._line += text.count("\n", low, offset)
        self._offset = offset
        start = 0
        if self._lf:
            start = text.rfind("\n", 0, offset) + 1
        if self._cr:
            start = max(start, text.rfind("\r", start, offset) + 1)
        return self._line, self._units(text[start:offset])

    def position(self, offset: int) -> t.Position:
        line, character = self.line_character(offset)
        return t.Position(line=line, character=character)

    def range(self, start: int, end: int) -> t.Range:
        return t.Range(start=self.position(start), end=self.position(end))

    def range_json(self, start: int, end: int) -> dict[str, dict[str, int]]:
        start_line, start_character = self.line_character(start)
        piece = self.text[start:end]
        if "\n" in piece or "\r" in piece:
            end_line, end_character = self.line_character(end)
        else:
            end_line, end_character = start_line, start_character + self._units(piece)
        return {
            "start": {"line": start_line, "character": start_character},
            "end": {"line": end_line, "character": end_character},
        }

    def _units(self, piece: str) -> int:
        return units(piece, self.encoding)


class _JsonReady(dict):  # type: ignore[type-arg]
    """A `TextDocumentEdit` already in its JSON form, sent as it is.

    A rename of a key used 10,000 times would otherwise build some 50,000 attrs objects
    only for the converter to flatten them again. cattrs unstructures the members of
    `documentChanges` (a union) by their runtime class, so a registered pass-through
    hook lets these dicts stand in; `json_passthrough` checks that before relying on it.
    """


def json_passthrough(server: MflsServer) -> bool:
    """Teach the server's converter to send `_JsonReady` values untouched; True when it
    demonstrably does."""
    converter = getattr(server.protocol, "_converter", None)
    if converter is None:
        return False
    converter.register_unstructure_hook(_JsonReady, lambda value: value)
    probe = _JsonReady({"textDocument": {"uri": "file:///probe.md", "version": None}})
    probe["edits"] = [{"range": _Positions("", Encoding.UTF16).range_json(0, 0), "newText": ""}]
    try:
        sent = converter.unstructure(t.WorkspaceEdit(document_changes=[probe]))  # type: ignore[list-item]
    except Exception:
        return False
    return sent == {"documentChanges": [dict(probe)]}


class EditBuilder:
    """Turns plain `WorkspaceChange`s into `WorkspaceEdit`s for one server's client."""

    def __init__(self, server: MflsServer, *, json_ready: bool = False) -> None:
        self.server = server
        self.json_ready = json_ready
        caps = server.client_capabilities
        self.document_changes = bool(capability(caps, "workspace.workspace_edit.document_changes"))
        self.snippets = self.document_changes and bool(
            capability(caps, "workspace.workspace_edit.snippet_edit_support")
        )

    def target(self, change: rn.DocumentChange) -> tuple[_Positions, int | None, str]:
        """Positions in the text the change was computed on, the open buffer's version
        (None on disk) and the URI to send."""
        encoding = self.server.convert.encoding
        buffer = self.server.texts.open.get(change.uri)
        if buffer is not None:
            if buffer.index.text != change.text:
                raise JsonRpcException(
                    f"{change.uri} changed while the edit was computed; try again",
                    code=CONTENT_MODIFIED,
                )
            return _Positions(change.text, encoding), buffer.version, buffer.client_uri
        return _Positions(change.text, encoding), None, change.uri

    def _structured(self, document: dict[str, Any]) -> t.TextDocumentEdit:
        converter = self.server.protocol._converter
        return converter.structure(dict(document), t.TextDocumentEdit)

    def edit(self, change: rn.WorkspaceChange, *, snippet: bool = False) -> t.WorkspaceEdit:
        annotation_id = rn.ANNOTATION_ID if change.annotation is not None else None
        if not self.document_changes:
            changes: dict[str, list[t.TextEdit]] = {}
            for doc in change.documents:
                positions, _, uri = self.target(doc)
                changes[uri] = [
                    t.TextEdit(range=positions.range(c.start, c.end), new_text=c.new_text)
                    for c in sorted(doc.changes, key=lambda c: c.start)
                ]
            return t.WorkspaceEdit(changes=changes)
        documents: list[Any] = []
        for doc in change.documents:
            positions, version, uri = self.target(doc)
            edits: list[dict[str, Any]] = []
            for c in sorted(doc.changes, key=lambda c: c.start):
                edit: dict[str, Any] = {"range": positions.range_json(c.start, c.end)}
                if snippet:
                    edit["snippet"] = {"kind": "snippet", "value": c.new_text}
                else:
                    edit["newText"] = c.new_text
                    if annotation_id is not None:
                        edit["annotationId"] = annotation_id
                edits.append(edit)
            document = _JsonReady(
                {"textDocument": {"uri": uri, "version": version}, "edits": edits}
            )
            documents.append(document if self.json_ready else self._structured(document))
        annotations = None
        if change.annotation is not None and annotation_id is not None:
            annotations = {
                annotation_id: t.ChangeAnnotation(
                    label=change.annotation.label,
                    needs_confirmation=change.annotation.needs_confirmation,
                    description=change.annotation.description,
                )
            }
        return t.WorkspaceEdit(document_changes=documents, change_annotations=annotations)


def _offset(server: MflsServer, uri: str, position: t.Position) -> int:
    index = server.texts.index(uri)
    if index is None:
        raise _Refused("This document is not part of any indexed course yet.")
    return index.offset(position.line, position.character, server.convert.encoding)


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a[0] <= b[1] and b[0] <= a[1]


def _kind_wanted(kind: str, only: Sequence[str] | None) -> bool:
    if not only:
        return True
    return any(kind == o or kind.startswith(o + ".") for o in only)


F = TypeVar("F", bound=Callable[..., Any])


def _failing_cleanly(what: str) -> Callable[[F], F]:
    """Let refusals through; log any other failure and answer it with a short error."""

    def decorate(handler: F) -> F:
        @functools.wraps(handler)
        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return handler(*args, **kwargs)
            except JsonRpcException:
                raise
            except Exception as error:
                log.exception("%s failed", what)
                raise JsonRpcException(f"mfls could not {what}: {error}") from None

        return run  # type: ignore[return-value]

    return decorate


def register(server: MflsServer) -> None:
    """Add prepareRename, rename and codeAction to `server`."""
    merge_requests: dict[tuple[str, str], list[str]] = {}
    json_ready = json_passthrough(server)

    def remember_merge(course_id: str, old_key: str, new_key: str) -> None:
        targets = merge_requests.setdefault((course_id, old_key), [])
        if new_key not in targets:
            targets.append(new_key)
        while len(merge_requests) > _MAX_MERGE_REQUESTS:
            del merge_requests[next(iter(merge_requests))]

    @server.feature(t.TEXT_DOCUMENT_PREPARE_RENAME)
    @_failing_cleanly("prepare the rename")
    def prepare_rename(
        ls: MflsServer, params: t.PrepareRenameParams
    ) -> t.PrepareRenamePlaceholder | None:
        uri = canonical_uri(params.text_document.uri)
        offset = _offset(ls, uri, params.position)
        target = rn.prepare_rename(ls.courses.snapshot, uri, offset)
        if isinstance(target, Refusal):
            raise _Refused(target.message)
        index = ls.texts.index(uri)
        assert index is not None
        return t.PrepareRenamePlaceholder(
            range=ls.convert.range(index, target.start, target.end), placeholder=target.key
        )

    @server.feature(t.TEXT_DOCUMENT_RENAME)
    @_failing_cleanly("rename the key")
    def rename(ls: MflsServer, params: t.RenameParams) -> t.WorkspaceEdit | None:
        uri = canonical_uri(params.text_document.uri)
        offset = _offset(ls, uri, params.position)
        snapshot = ls.courses.snapshot
        change = rn.rename(snapshot, uri, offset, params.new_name)
        if isinstance(change, Refusal):
            course = snapshot.course_for(uri)
            if change.conflict and course is not None and change.old_key and change.new_key:
                remember_merge(course.id, change.old_key, change.new_key)
            raise _Refused(change.message)
        if not change.documents:
            return None
        log.info(
            "rename: %d markers in %d documents",
            change.markers,
            len(change.documents),
        )
        return EditBuilder(ls, json_ready=json_ready).edit(change)

    @server.feature(
        t.TEXT_DOCUMENT_CODE_ACTION,
        t.CodeActionOptions(code_action_kinds=list(ACTION_KINDS)),
    )
    @_failing_cleanly("compute code actions")
    def code_action(ls: MflsServer, params: t.CodeActionParams) -> list[t.CodeAction] | None:
        uri = canonical_uri(params.text_document.uri)
        index = ls.texts.index(uri)
        if index is None:
            return None
        encoding = ls.convert.encoding
        r = params.range
        start = index.offset(r.start.line, r.start.character, encoding)
        end = index.offset(r.end.line, r.end.character, encoding)
        only = params.context.only
        course_wide = bool(only) and any(
            _kind_wanted(kind, only) for kind in (ca.CONVERT_LEGACY_COURSE, ca.PAD_MARKERS_COURSE)
        )
        snapshot = ls.courses.snapshot
        course = snapshot.course_for(uri)
        targets: dict[str, list[str]] = {}
        if course is not None:
            for (course_id, old_key), new_keys in merge_requests.items():
                if course_id == course.id:
                    targets[old_key] = list(new_keys)
        found = ca.code_actions(
            snapshot,
            uri,
            min(start, end),
            max(start, end),
            course_wide=course_wide,
            merge_targets=targets,
        )
        builder = EditBuilder(ls, json_ready=json_ready)
        result: list[t.CodeAction] = []
        for action in found:
            if not _kind_wanted(action.kind, only):
                continue
            if action.snippet_change is not None and builder.snippets:
                edit = builder.edit(action.snippet_change, snippet=True)
            else:
                edit = builder.edit(action.change)
            result.append(
                t.CodeAction(
                    title=action.title,
                    kind=action.kind,
                    edit=edit,
                    diagnostics=_fixed(ls, index, params.context.diagnostics, action) or None,
                    is_preferred=action.preferred or None,
                )
            )
        return result

    del prepare_rename, rename, code_action


def _fixed(
    server: MflsServer,
    index: LineIndex,
    diagnostics: Sequence[t.Diagnostic],
    action: ca.CodeAction,
) -> list[t.Diagnostic]:
    """The diagnostics of the request that `action` answers."""
    if action.fixes is None or action.fixes_range is None:
        return []
    encoding = server.convert.encoding
    fixed = []
    for diagnostic in diagnostics:
        if diagnostic.code != action.fixes:
            continue
        r = diagnostic.range
        span = (
            index.offset(r.start.line, r.start.character, encoding),
            index.offset(r.end.line, r.end.character, encoding),
        )
        if _overlaps(span, action.fixes_range):
            fixed.append(diagnostic)
    return fixed
