"""The course map commands (`workspace/executeCommand`), each given a document URI:

- `mfls.courseKeys`: the course key table, every key in course order with where it is
  asked, how often it is read and its problems (`rows`), and the same as Markdown; for an
  AI-Shifu course folder, its lessons changed since the last pull (`sinceLastPull`);
- `mfls.courseMap`: the course map page (`html`), for an editor's web view.

The map's features are imported at first use, not on the server's start path (the
editor's first problem waits for that start).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from mfls.features.refusal import Refusal
from mfls.lsp.snapshot import Snapshot

if TYPE_CHECKING:
    from mfls.features.course_map import CourseMap

COURSE_KEYS: Final = "mfls.courseKeys"
COURSE_MAP: Final = "mfls.courseMap"

WEBVIEW_CSP: Final = (
    "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
    "base-uri 'none'; form-action 'none'"
)


def _uri(arguments: list[Any] | None) -> str | Refusal:
    """The document URI of a command's arguments: `[uri]` or `[{"uri": uri}]`."""
    first = arguments[0] if arguments else None
    if isinstance(first, dict):
        first = first.get("uri")
    if not isinstance(first, str):
        return Refusal(
            "Name a document of the course: give its URI as the argument.", malformed=True
        )
    return first


def _map_of(snap: Snapshot, arguments: list[Any] | None) -> CourseMap | Refusal:
    """The map of the course of the document the arguments name."""
    uri = _uri(arguments)
    if isinstance(uri, Refusal):
        return uri
    from mfls.features.course_map import map_of_document

    return map_of_document(snap.workspace, uri, snap.language)


def course_keys(snap: Snapshot, arguments: list[Any] | None) -> dict[str, Any] | Refusal:
    from mfls.features.course_map import key_table, key_table_markdown
    from mfls.features.sync_status import since_last_pull_json, sync_status

    found = _map_of(snap, arguments)
    if isinstance(found, Refusal):
        return found
    uri = _uri(arguments)
    course = snap.workspace.course_for(uri) if isinstance(uri, str) else None
    return {
        "course": found.name,
        "root": found.root,
        "lessons": len(found.lessons),
        "figures": found.figures.to_json(),
        # An AI-Shifu course folder with `.shifu-sync.json`: what changed since the pull.
        "sinceLastPull": since_last_pull_json(sync_status(course) if course else None),
        "rows": key_table(found),
        "markdown": key_table_markdown(found, snap.language),
    }


def course_map(snap: Snapshot, arguments: list[Any] | None) -> dict[str, Any] | Refusal:
    from mfls.features.course_map_html import map_html

    found = _map_of(snap, arguments)
    if isinstance(found, Refusal):
        return found
    return {
        "course": found.name,
        "title": f"Course map: {found.name}",
        "html": map_html(found, csp=WEBVIEW_CSP),
    }
