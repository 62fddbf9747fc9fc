"""Help while writing a course: code lenses on bindings, document links in
`mfcourse.toml`, interaction snippets after `?[` (called by `assistance.complete`)."""

from __future__ import annotations

from lsprotocol import types as t

from mfls.features import code_lens, document_links, snippets
from mfls.lsp import from_proto, to_proto
from mfls.lsp.documents import is_course_file
from mfls.lsp.server import MflsServer, read_course_file
from mfls.text.line_index import LineIndex
from mfls.workspace.uris import canonical_uri, uri_to_path

CODE_LENS_OPTIONS = t.CodeLensOptions(resolve_provider=False)
DOCUMENT_LINK_OPTIONS = t.DocumentLinkOptions(resolve_provider=False)


def code_lenses(ls: MflsServer, params: t.CodeLensParams) -> list[t.CodeLens] | None:
    doc = from_proto.document(ls.texts, params.text_document.uri)
    if doc is None:
        return None
    found = code_lens.code_lenses(ls.courses.snapshot, doc.uri, ls.language)
    return to_proto.code_lenses(ls.convert, doc.uri, doc.index, found)


def links(ls: MflsServer, params: t.DocumentLinkParams) -> list[t.DocumentLink] | None:
    uri = canonical_uri(params.text_document.uri)
    if not is_course_file(uri):
        return None
    path = uri_to_path(uri)
    if path is None:
        return None
    snapshot = ls.courses.snapshot
    course = document_links.course_of_file(snapshot, uri)
    if course is None:
        return None
    text = read_course_file(path, course.root)
    found = document_links.course_file_links(snapshot, uri, text)
    return to_proto.document_links(LineIndex(text), ls.convert, found)


def snippet_completion(ls: MflsServer, at: from_proto.Cursor) -> t.CompletionList | None:
    """The interaction snippets when the cursor follows `?[`, else None."""
    found = snippets.interaction_snippets(ls.courses.snapshot, at.uri, at.offset)
    if found is None:
        return None
    return to_proto.snippet_completion_list(
        ls.convert, at.index, found, ls.caps.completion_snippets
    )
