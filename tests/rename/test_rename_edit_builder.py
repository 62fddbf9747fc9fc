"""The rename handler's WorkspaceEdit: JSON-ready and attrs forms send the same JSON."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from lsprotocol import types as t

from mfls.features import rename as rn
from mfls.lsp.capabilities import Capabilities
from mfls.lsp.routes import create_server
from mfls.lsp.to_proto import EditBuilder, sends_json_ready, wire_converter


def test_json_ready_edits_serialize_like_attrs_edits(make_course: Callable[..., Path]) -> None:
    root = make_course(
        {
            "a.md": "😀 ?[{{q}} A | B]\r\n\r\nUse {{ q }}.\r\n",
            "b.md": "> ?[{{\n> q\n> }} X | Y]\n",
        }
    )
    server = create_server()
    caps = Capabilities.read(
        t.ClientCapabilities(
            workspace=t.WorkspaceClientCapabilities(
                workspace_edit=t.WorkspaceEditClientCapabilities(
                    document_changes=True,
                    change_annotation_support=t.ChangeAnnotationsSupportOptions(),
                )
            )
        )
    )
    server.courses.set_folders([str(root)])
    server.courses.index_all()
    change = rn.rename_key(server.courses.snapshot.courses[str(root)], "q", "🚀 r")
    assert isinstance(change, rn.WorkspaceChange)
    converter = wire_converter()
    assert sends_json_ready(converter) and server.state.json_ready

    def builder(json_ready: bool) -> EditBuilder:
        return EditBuilder(server.snapshot().texts, caps, json_ready=json_ready)

    fast = builder(True).edit(change)
    slow = builder(False).edit(change)
    assert isinstance(slow, t.WorkspaceEdit)
    assert slow.document_changes is not None
    assert all(
        isinstance(edit, t.AnnotatedTextEdit)
        for document in slow.document_changes
        if isinstance(document, t.TextDocumentEdit)
        for edit in document.edits
    )
    sent = converter.unstructure(fast)
    assert sent == converter.unstructure(slow)
    first = sent["documentChanges"][0]
    assert first["textDocument"] == {"uri": (root / "a.md").as_uri(), "version": None}
    assert first["edits"][0] == {
        "range": {"start": {"line": 0, "character": 5}, "end": {"line": 0, "character": 10}},
        "newText": "{{ 🚀 r }}",
        "annotationId": "mfls.storedAnswers",
    }
    snippet = converter.unstructure(builder(True).edit(change, snippet=True))
    assert snippet["documentChanges"][1]["edits"][0]["snippet"] == {
        "kind": "snippet",
        "value": "🚀 r",
    }
