"""Finding things: definition, declaration, references, highlights, document and
workspace symbols, folding ranges. Their features are imported at first use, not on the
server's start path (the editor's first problem waits for that start)."""

from __future__ import annotations

from lsprotocol import types as t

from mfls.lsp import to_proto
from mfls.lsp.snapshot import Snapshot


def definition(
    snap: Snapshot, params: t.DefinitionParams
) -> list[t.LocationLink] | list[t.Location] | None:
    return _targets(snap, params, snap.caps.definition_links)


def declaration(
    snap: Snapshot, params: t.DeclarationParams
) -> list[t.LocationLink] | list[t.Location] | None:
    return _targets(snap, params, snap.caps.declaration_links)


def _targets(
    snap: Snapshot, params: t.DefinitionParams | t.DeclarationParams, links: bool
) -> list[t.LocationLink] | list[t.Location] | None:
    at = snap.cursor(params.text_document.uri, params.position)
    if at is None:
        return None
    from mfls.features import navigation

    targets = navigation.definition(snap.workspace, at.uri, at.offset)
    if not targets:
        return None
    return to_proto.definition(snap.convert, at.index, targets, links)


def references(snap: Snapshot, params: t.ReferenceParams) -> list[t.Location] | None:
    at = snap.cursor(params.text_document.uri, params.position)
    if at is None:
        return None
    from mfls.features import navigation

    found = navigation.references(
        snap.workspace, at.uri, at.offset, params.context.include_declaration
    )
    return to_proto.locations(snap.convert, found)


def highlights(
    snap: Snapshot, params: t.DocumentHighlightParams
) -> list[t.DocumentHighlight] | None:
    at = snap.cursor(params.text_document.uri, params.position)
    if at is None:
        return None
    from mfls.features import navigation

    found = navigation.highlights(snap.workspace, at.uri, at.offset)
    return to_proto.highlights(snap.convert, at.index, found)


def document_symbols(
    snap: Snapshot, params: t.DocumentSymbolParams
) -> list[t.DocumentSymbol] | list[t.SymbolInformation] | None:
    doc = snap.document(params.text_document.uri)
    if doc is None:
        return None
    from mfls.features import symbols

    found = symbols.document_symbols(snap.workspace, doc.uri)
    if snap.caps.hierarchical_symbols:
        return to_proto.document_symbols(snap.convert, doc.index, found)
    return to_proto.flat_symbols(snap.convert, doc.uri, doc.index, found)


def workspace_symbols(
    snap: Snapshot, params: t.WorkspaceSymbolParams
) -> list[t.SymbolInformation] | None:
    from mfls.features import symbols

    found = symbols.workspace_symbols(snap.workspace, params.query)
    return to_proto.workspace_symbols(snap.convert, found)


def folding_ranges(snap: Snapshot, params: t.FoldingRangeParams) -> list[t.FoldingRange] | None:
    doc = snap.document(params.text_document.uri)
    if doc is None:
        return None
    from mfls.features import folding

    found = folding.folding_ranges(snap.workspace, doc.uri)
    return to_proto.folding_ranges(doc.index, found)
