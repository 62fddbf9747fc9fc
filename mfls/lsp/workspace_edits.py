"""Workspace edits for one client (`EditBuilder`), and the wire converter that sends
JSON-ready document edits as they are."""

from __future__ import annotations

import functools
from typing import Any

import cattrs
from lsprotocol import types as t
from pygls.protocol import default_converter

from mfls.features import rename as rn
from mfls.features.refusal import Refusal
from mfls.lsp.capabilities import Capabilities
from mfls.lsp.documents import Texts
from mfls.lsp.positions import StreamPositions
from mfls.text.line_index import Encoding


class JsonReady(dict[str, Any]):
    """A `TextDocumentEdit` already in its JSON form, sent as it is.

    A rename of a key used 10,000 times would otherwise build some 50,000 attrs objects
    only for the converter to flatten them again. cattrs unstructures the members of
    `documentChanges` (a union) by their runtime class, so a registered pass-through
    hook lets these dicts stand in; `sends_json_ready` checks that before relying on it.
    """


@functools.cache
def wire_converter() -> cattrs.Converter:
    """pygls's converter, also sending `JsonReady` values untouched: one per process, so
    the (un)structure functions it generates on first use of a type are made once (the
    playground's snapshot of Python keeps those of its warm-up, a few hundred milliseconds
    of its second visit's `initialize`)."""
    converter = default_converter()
    converter.register_unstructure_hook(JsonReady, lambda value: value)
    # lsprotocol's hook factory makes the unstructure functions of the capabilities anew
    # for every answer to `initialize` (fourteen classes compiled); made once here.
    converter.register_unstructure_hook(
        t.InitializeResult, converter.get_unstructure_hook(t.InitializeResult)
    )
    return converter


def sends_json_ready(converter: cattrs.Converter) -> bool:
    """True when `converter` demonstrably sends a `JsonReady` edit as it is."""
    probe = JsonReady({"textDocument": {"uri": "file:///probe.md", "version": None}})
    probe["edits"] = [
        {"range": StreamPositions("", Encoding.UTF16).range_json(0, 0), "newText": ""}
    ]
    try:
        sent = converter.unstructure(t.WorkspaceEdit(document_changes=[probe]))  # type: ignore[list-item]  # the probe
    except Exception:
        return False
    return bool(sent == {"documentChanges": [dict(probe)]})


class EditBuilder:
    """Turns plain `WorkspaceChange`s into `WorkspaceEdit`s for one client.

    A change's annotation is sent (never needing confirmation) only to a client that
    declares `changeAnnotationSupport`.

    With `json_ready`, documents go out as `JsonReady` dicts (see there); otherwise as
    lsprotocol objects, the same JSON once sent."""

    def __init__(self, texts: Texts, caps: Capabilities, *, json_ready: bool = False) -> None:
        self.texts = texts
        self.encoding = caps.encoding
        self.json_ready = json_ready
        self.document_changes = caps.document_changes
        self.snippets = caps.snippet_edits
        self.annotations = caps.change_annotations

    def target(self, change: rn.DocumentChange) -> tuple[StreamPositions, int | None, str] | None:
        """Positions in the text the change was computed on, the open buffer's version
        (None on disk) and the URI to send; None when the buffer has changed since."""
        buffer = self.texts.open.get(change.uri)
        positions = StreamPositions(change.text, self.encoding)
        if buffer is not None:
            if buffer.index.text != change.text:
                return None
            return positions, buffer.version, buffer.client_uri
        return positions, None, change.uri

    def edit(
        self, change: rn.WorkspaceChange, *, snippet: bool = False
    ) -> t.WorkspaceEdit | Refusal:
        """The edit, or a stale refusal when an open document changed meanwhile."""
        targets = []
        for doc in change.documents:
            target = self.target(doc)
            if target is None:
                return Refusal(
                    f"{doc.uri} changed while the edit was computed; try again", stale=True
                )
            targets.append((doc, *target))
        annotated = change.annotation is not None and self.annotations
        annotation_id = rn.ANNOTATION_ID if annotated else None
        if not self.document_changes:
            changes: dict[str, list[t.TextEdit]] = {}
            for doc, positions, _, uri in targets:
                changes[uri] = [
                    t.TextEdit(range=positions.range(c.start, c.end), new_text=c.new_text)
                    for c in sorted(doc.changes, key=lambda c: c.start)
                ]
            return t.WorkspaceEdit(changes=changes)
        documents: list[Any] = []
        for doc, positions, version, uri in targets:
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
            document = JsonReady({"textDocument": {"uri": uri, "version": version}, "edits": edits})
            documents.append(document if self.json_ready else _text_document_edit(document))
        annotations = None
        if change.annotation is not None and annotation_id is not None:
            annotations = {
                annotation_id: t.ChangeAnnotation(
                    label=change.annotation.label,
                    needs_confirmation=False,
                    description=change.annotation.description,
                )
            }
        return t.WorkspaceEdit(document_changes=documents, change_annotations=annotations)


def _text_document_edit(document: dict[str, Any]) -> t.TextDocumentEdit:
    """The lsprotocol form of one JSON-ready document edit."""
    edits: list[t.TextEdit | t.AnnotatedTextEdit | t.SnippetTextEdit] = []
    for edit in document["edits"]:
        r = edit["range"]
        range_ = t.Range(
            start=t.Position(line=r["start"]["line"], character=r["start"]["character"]),
            end=t.Position(line=r["end"]["line"], character=r["end"]["character"]),
        )
        if "snippet" in edit:
            edits.append(
                t.SnippetTextEdit(
                    range=range_, snippet=t.StringValue(value=edit["snippet"]["value"])
                )
            )
        elif "annotationId" in edit:
            edits.append(
                t.AnnotatedTextEdit(
                    range=range_, new_text=edit["newText"], annotation_id=edit["annotationId"]
                )
            )
        else:
            edits.append(t.TextEdit(range=range_, new_text=edit["newText"]))
    identifier = document["textDocument"]
    return t.TextDocumentEdit(
        text_document=t.OptionalVersionedTextDocumentIdentifier(
            uri=identifier["uri"], version=identifier["version"]
        ),
        edits=edits,
    )
