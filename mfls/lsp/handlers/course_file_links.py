"""Document links in a course file (`mfcourse.toml`): each lesson it names, to its file.
The course file's text is the one its course snapshot keeps (`CourseConfig.text`). The
feature is imported at first use, not on the server's start path."""

from __future__ import annotations

from lsprotocol import types as t

from mfls.lsp import to_proto
from mfls.lsp.documents import is_course_file
from mfls.lsp.snapshot import Snapshot
from mfls.text.line_index import LineIndex
from mfls.workspace.uris import canonical_uri

DOCUMENT_LINK_OPTIONS = t.DocumentLinkOptions(resolve_provider=False)


def links(snap: Snapshot, params: t.DocumentLinkParams) -> list[t.DocumentLink] | None:
    uri = canonical_uri(params.text_document.uri)
    if not is_course_file(uri):
        return None
    from mfls.features import document_links

    course = document_links.course_of_file(snap.workspace, uri)
    if course is None:
        return None
    text = course.config.text or ""
    found = document_links.course_file_links(snap.workspace, uri, text)
    return to_proto.document_links(LineIndex(text), snap.convert, found)
