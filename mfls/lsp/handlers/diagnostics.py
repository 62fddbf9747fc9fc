"""Pulled diagnostics (`textDocument/diagnostic`); pushing them is the server's
(`MflsServer.diagnostics_changed`)."""

from __future__ import annotations

from typing import Any

from lsprotocol import types as t

from mfls.lsp import to_proto
from mfls.lsp.server import MflsServer
from mfls.workspace.uris import canonical_uri

OPTIONS = t.DiagnosticOptions(
    identifier="mfls", inter_file_dependencies=True, workspace_diagnostics=False
)


def document_diagnostic(
    ls: MflsServer, params: t.DocumentDiagnosticParams
) -> to_proto.JsonText | t.RelatedUnchangedDocumentDiagnosticReport:
    """A full report (as JSON text, see `to_proto.DiagnosticWriter`), or "unchanged"."""
    items = ls.diagnostics_of(canonical_uri(params.text_document.uri))
    result_id = to_proto.result_id(items)
    if params.previous_result_id == result_id:
        return t.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
    return to_proto.full_report_text(items, result_id)


def no_report(params: Any) -> t.RelatedFullDocumentDiagnosticReport:
    return t.RelatedFullDocumentDiagnosticReport(items=[])
