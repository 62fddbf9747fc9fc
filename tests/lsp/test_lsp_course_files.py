"""A course file's diagnostics and links come from the text its course snapshot keeps
(`CourseConfig.text`, `CourseLayout.structure_text`): the file is gone from the disk
after indexing and the real file system is out of reach, and they still stand where
the indexed text puts them."""

from __future__ import annotations

import json
from typing import Any

from lsprotocol import types as t

from mfls.lsp import routes
from mfls.lsp.handlers import course_file_links
from mfls.lsp.state import ServerState
from tests.kit.course import Course, course, no_disk

COURSE = 'name = "Demo"\nlessons = ["a.md"]\n  bogus = 1\n'
BROKEN_STRUCTURE = '{"chapters": [\n  {"title": "One", "lessons": [}\n]}\n'


def span(line: int, start: int, end: int) -> dict[str, Any]:
    return {
        "start": {"line": line, "character": start},
        "end": {"line": line, "character": end},
    }


def forgotten(kit: Course, name: str) -> tuple[ServerState, str]:
    """The state of the indexed `kit`, with file `name` then removed from its disk."""
    state = ServerState(kit.workspace)
    kit.disk.remove(kit.path(name))
    return state, kit.uri(name)


def test_course_file_diagnostics_stand_in_the_indexed_text() -> None:
    state, uri = forgotten(course("a.md", "{{ k }}\n", config=COURSE), "mfcourse.toml")
    with no_disk():
        found = [json.loads(d) for d in state.snapshot().diagnostics(uri)]
    assert [(d["code"], d["range"]) for d in found] == [("course-file-invalid", span(2, 2, 7))]
    assert found[0]["message"].startswith("Unknown setting `bogus` is ignored.")


def test_course_file_links_come_from_the_snapshot_through_a_read_route() -> None:
    kit = course("a.md", "{{ k }}\n", config=COURSE)
    state, uri = forgotten(kit, "mfcourse.toml")
    server = routes.create_server(inline=True)
    server.state = state
    [route] = [r for r in routes.ROUTES if r.method == t.TEXT_DOCUMENT_DOCUMENT_LINK]
    assert route.mode is routes.Mode.READ and route.handler is course_file_links.links
    params = t.DocumentLinkParams(text_document=t.TextDocumentIdentifier(uri=uri))
    with no_disk():
        answer = routes.bound(server, route)(params)
    assert answer == [
        t.DocumentLink(
            range=t.Range(start=t.Position(1, 11), end=t.Position(1, 17)),
            target=kit.uri("a.md"),
            tooltip="Open a.md",
        )
    ]


def test_structure_json_diagnostics_stand_in_the_indexed_text() -> None:
    kit = course({"structure.json": BROKEN_STRUCTURE, "lessons/lesson-01.md": "{{ k }}\n"})
    state, uri = forgotten(kit, "structure.json")
    with no_disk():
        found = [json.loads(d) for d in state.snapshot().diagnostics(uri)]
    column = BROKEN_STRUCTURE.splitlines()[1].index("}")
    assert [(d["code"], d["range"]) for d in found] == [
        ("course-file-invalid", span(1, column, column + 1))
    ]
    assert found[0]["message"].startswith("structure.json is not valid JSON")
