"""Finding things: definition, declaration, references, highlights, document and
workspace symbols, folding ranges."""

from __future__ import annotations

from lsprotocol import types as t

from mfls.features import folding, navigation, symbols
from mfls.lsp import from_proto, to_proto
from mfls.lsp.server import MflsServer


def definition(
    ls: MflsServer, params: t.DefinitionParams
) -> list[t.LocationLink] | list[t.Location] | None:
    return _targets(ls, params, ls.caps.definition_links)


def declaration(
    ls: MflsServer, params: t.DeclarationParams
) -> list[t.LocationLink] | list[t.Location] | None:
    return _targets(ls, params, ls.caps.declaration_links)


def _targets(
    ls: MflsServer, params: t.DefinitionParams | t.DeclarationParams, links: bool
) -> list[t.LocationLink] | list[t.Location] | None:
    at = from_proto.cursor(ls.texts, ls.caps.encoding, params.text_document.uri, params.position)
    if at is None:
        return None
    targets = navigation.definition(ls.courses.snapshot, at.uri, at.offset)
    if not targets:
        return None
    return to_proto.definition(ls.convert, at.index, targets, links)


def references(ls: MflsServer, params: t.ReferenceParams) -> list[t.Location] | None:
    at = from_proto.cursor(ls.texts, ls.caps.encoding, params.text_document.uri, params.position)
    if at is None:
        return None
    found = navigation.references(
        ls.courses.snapshot, at.uri, at.offset, params.context.include_declaration
    )
    return to_proto.locations(ls.convert, found)


def highlights(
    ls: MflsServer, params: t.DocumentHighlightParams
) -> list[t.DocumentHighlight] | None:
    at = from_proto.cursor(ls.texts, ls.caps.encoding, params.text_document.uri, params.position)
    if at is None:
        return None
    found = navigation.highlights(ls.courses.snapshot, at.uri, at.offset)
    return to_proto.highlights(ls.convert, at.index, found)


def document_symbols(
    ls: MflsServer, params: t.DocumentSymbolParams
) -> list[t.DocumentSymbol] | list[t.SymbolInformation] | None:
    doc = from_proto.document(ls.texts, params.text_document.uri)
    if doc is None:
        return None
    found = symbols.document_symbols(ls.courses.snapshot, doc.uri)
    if ls.caps.hierarchical_symbols:
        return to_proto.document_symbols(ls.convert, doc.index, found)
    return to_proto.flat_symbols(ls.convert, doc.uri, doc.index, found)


def workspace_symbols(
    ls: MflsServer, params: t.WorkspaceSymbolParams
) -> list[t.SymbolInformation] | None:
    found = symbols.workspace_symbols(ls.courses.snapshot, params.query)
    return to_proto.workspace_symbols(ls.convert, found)


def folding_ranges(ls: MflsServer, params: t.FoldingRangeParams) -> list[t.FoldingRange] | None:
    doc = from_proto.document(ls.texts, params.text_document.uri)
    if doc is None:
        return None
    found = folding.folding_ranges(ls.courses.snapshot, doc.uri)
    return to_proto.folding_ranges(doc.index, found)
