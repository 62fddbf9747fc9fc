"""Pulled diagnostics (`textDocument/diagnostic`, `workspace/diagnostic`); pushing them is
the server's (`MflsServer.diagnostics_changed`)."""

from __future__ import annotations

from lsprotocol import types as t

from mfls.lsp import to_proto
from mfls.lsp.documents import is_course_file
from mfls.lsp.snapshot import Snapshot
from mfls.workspace.uris import canonical_uri

OPTIONS = t.DiagnosticOptions(
    identifier="mfls", inter_file_dependencies=True, workspace_diagnostics=True
)


def document_diagnostic(
    snap: Snapshot, params: t.DocumentDiagnosticParams
) -> to_proto.JsonText | t.RelatedUnchangedDocumentDiagnosticReport:
    """A full report (as JSON text, see `to_proto.DiagnosticWriter`), or "unchanged"."""
    items = snap.diagnostics(canonical_uri(params.text_document.uri))
    result_id = to_proto.result_id(items)
    if params.previous_result_id == result_id:
        return t.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
    return to_proto.full_report_text(items, result_id)


def workspace_diagnostic(snap: Snapshot, params: t.WorkspaceDiagnosticParams) -> to_proto.JsonText:
    """Every lesson and reference of every course, and each course file with problems (or
    reported before, so that a fixed one is cleared); "unchanged" where the client's result
    id still holds. With `diagnostics.closedDocuments` off, closed documents report none.
    Sent as JSON text (`to_proto.DiagnosticWriter`)."""
    previous = {canonical_uri(p.uri): p.value for p in params.previous_result_ids}
    uris = snap.reported_documents()
    uris += [uri for uri in previous if is_course_file(uri) and uri not in uris]
    reports: list[tuple[str, int | None, str, list[str] | None]] = []
    for uri in uris:
        buffer = snap.buffers.get(uri)
        wanted = buffer is not None or is_course_file(uri) or snap.settings.closed_documents
        items = snap.diagnostics(uri) if wanted else []
        result_id = to_proto.result_id(items)
        version = None if buffer is None else buffer.version
        unchanged = previous.get(uri) == result_id
        reports.append((snap.client_uri(uri), version, result_id, None if unchanged else items))
    return to_proto.workspace_report_text(reports)
