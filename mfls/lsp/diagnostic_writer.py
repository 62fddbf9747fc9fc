"""Plain diagnostics -> LSP: `diagnostic` (lsprotocol objects) and `DiagnosticWriter`
(their JSON text, which is what the server sends), the reports and notification that
carry those texts, and their result ids."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from lsprotocol import types as t

from mfls.features.diagnostics import DEPRECATED, Diagnostic, Related
from mfls.lsp.positions import Converter
from mfls.text.line_index import LineIndex

SOURCE = "mfls"

SEVERITIES = {
    "error": t.DiagnosticSeverity.Error,
    "warning": t.DiagnosticSeverity.Warning,
    "information": t.DiagnosticSeverity.Information,
    "hint": t.DiagnosticSeverity.Hint,
}
TAGS = {DEPRECATED: t.DiagnosticTag.Deprecated, "unnecessary": t.DiagnosticTag.Unnecessary}


def diagnostic(convert: Converter, index: LineIndex, item: Diagnostic) -> t.Diagnostic:
    related: list[t.DiagnosticRelatedInformation] = []
    for uri, start, end, message in item.related:
        range_ = convert.range_in(uri, start, end)
        if range_ is not None:
            related.append(
                t.DiagnosticRelatedInformation(
                    location=t.Location(uri=convert.texts.client_uri(uri), range=range_),
                    message=message,
                )
            )
    tags = [TAGS[tag] for tag in item.tags if tag in TAGS]
    return t.Diagnostic(
        range=convert.range(index, item.start, item.end),
        message=item.message,
        severity=SEVERITIES.get(item.severity, t.DiagnosticSeverity.Warning),
        code=item.code,
        source=SOURCE,
        related_information=related or None,
        tags=tags or None,
    )


class JsonText(str):
    """A value already written as JSON text: `MflsProtocol` sends it as it is."""


_RANGE_TEXT = (
    '{"range": {"start": {"line": %d, "character": %d}, "end": {"line": %d, "character": %d}}, '
)
_MEMO_SIZE = 50_000
"""Texts remembered by a `DiagnosticWriter` (all forgotten when it is full)."""
_Place = tuple[str, int, int, int, int, str]  # client URI, range, message of a related place


class DiagnosticWriter:
    """Plain diagnostics -> their JSON texts, exactly as the wire converter writes what
    `diagnostic` makes (the same members, order and escapes), without building
    lsprotocol objects or running cattrs.

    Ranges are computed on every call; the rest of a diagnostic's text (message, code,
    severity, tags, related places) is remembered by its content, and related places by
    the line index they were counted in, so a keystroke that moves diagnostics mostly
    reformats their ranges."""

    def __init__(self, convert: Converter) -> None:
        self.convert = convert
        self._rest: dict[tuple[str, str, str, tuple[str, ...], tuple[_Place, ...]], str] = {}
        self._places: dict[tuple[Related, ...], tuple[tuple[object, ...], tuple[_Place, ...]]]
        self._places = {}  # related places -> (what they were counted in, the places)

    def texts(
        self, index: LineIndex, items: Sequence[Diagnostic], convert: Converter | None = None
    ) -> list[str]:
        """The texts of `items` of the document indexed by `index`; related places are
        looked up through `convert` (a snapshot's; the writer's own when None), which
        converts in the writer's encoding."""
        convert = self.convert if convert is None else convert
        rest = self._rest
        if len(rest) > _MEMO_SIZE:
            rest.clear()
        if len(self._places) > _MEMO_SIZE:
            self._places.clear()
        targets: dict[str, tuple[LineIndex, str] | None] = {}
        ranges = index.spans([(item.start, item.end) for item in items], convert.encoding)
        found: list[str] = []
        for item, range_ in zip(items, ranges, strict=True):
            places = self._places_of(convert, item.related, targets) if item.related else ()
            key = (item.code, item.severity, item.message, item.tags, places)
            tail = rest.get(key)
            if tail is None:
                tail = rest[key] = _rest_text(item, places)
            found.append(_RANGE_TEXT % range_ + tail)
        return found

    def _places_of(
        self,
        convert: Converter,
        related: tuple[Related, ...],
        targets: dict[str, tuple[LineIndex, str] | None],
    ) -> tuple[_Place, ...]:
        """The related places that can be shown: (client URI, range, message) each."""
        texts = convert.texts
        encoding = convert.encoding
        basis: list[tuple[LineIndex, str] | None] = []
        for uri, _, _, _ in related:
            if uri in targets:
                target = targets[uri]
            else:
                index = texts.index(uri)
                target = targets[uri] = None if index is None else (index, texts.client_uri(uri))
            basis.append(target)
        counted_in = (encoding, *basis)  # line indexes compare by identity
        seen = self._places.get(related)
        if seen is not None and seen[0] == counted_in:
            return seen[1]
        places: list[_Place] = []
        for (_, start, end, message), target in zip(related, basis, strict=True):
            if target is not None:
                index, client_uri = target
                [(line, character, end_line, end_character)] = index.spans([(start, end)], encoding)
                places.append((client_uri, line, character, end_line, end_character, message))
        found = tuple(places)
        self._places[related] = (counted_in, found)
        return found


def _rest_text(item: Diagnostic, places: tuple[_Place, ...]) -> str:
    """The JSON text of a diagnostic after its range: `"message": ...}`."""
    rest: dict[str, Any] = {
        "message": item.message,
        "severity": int(SEVERITIES.get(item.severity, t.DiagnosticSeverity.Warning)),
        "code": item.code,
        "source": SOURCE,
    }
    tags = [int(TAGS[tag]) for tag in item.tags if tag in TAGS]
    if tags:
        rest["tags"] = tags
    if places:
        rest["relatedInformation"] = [
            {
                "location": {
                    "uri": uri,
                    "range": {
                        "start": {"line": line, "character": character},
                        "end": {"line": end_line, "character": end_character},
                    },
                },
                "message": message,
            }
            for uri, line, character, end_line, end_character, message in places
        ]
    return json.dumps(rest)[1:]


def publish_diagnostics_text(uri: str, texts: Sequence[str], version: int | None) -> str:
    """The whole `textDocument/publishDiagnostics` notification of `texts` (from
    `DiagnosticWriter`), as pygls would write it."""
    tail = "" if version is None else f', "version": {json.dumps(version)}'
    return (
        f'{{"params": {{"uri": {json.dumps(uri)}, "diagnostics": [{", ".join(texts)}]{tail}}}, '
        f'"method": "{t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS}", "jsonrpc": "2.0"}}'
    )


def full_report_text(texts: Sequence[str], result_id: str) -> JsonText:
    """A full `textDocument/diagnostic` report of `texts` (from `DiagnosticWriter`)."""
    return JsonText(
        f'{{"items": [{", ".join(texts)}], "kind": "full", "resultId": {json.dumps(result_id)}}}'
    )


def workspace_report_text(
    reports: Iterable[tuple[str, int | None, str, Sequence[str] | None]],
) -> JsonText:
    """A `workspace/diagnostic` report: for each document (client URI, version, result id,
    texts from `DiagnosticWriter`, or None when the client's result id still holds) a full
    or an unchanged report."""
    parts = []
    for uri, version, result_id, texts in reports:
        head = (
            f'"uri": {json.dumps(uri)}, "version": {json.dumps(version)}, '
            f'"resultId": {json.dumps(result_id)}'
        )
        if texts is None:
            parts.append(f'{{"kind": "unchanged", {head}}}')
        else:
            parts.append(f'{{"kind": "full", {head}, "items": [{", ".join(texts)}]}}')
    return JsonText(f'{{"items": [{", ".join(parts)}]}}')


def result_id(texts: Iterable[str]) -> str:
    """A digest of diagnostics' JSON texts (from `DiagnosticWriter`), equal exactly when
    they are."""
    payload = "\n".join(texts).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(payload, digest_size=12).hexdigest()
