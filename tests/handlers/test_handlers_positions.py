"""Position encodings, in process: columns after emoji, CRLF documents, edits, clamping.
Moved from tests/e2e/test_e2e_positions.py.

The lesson, line by line (code point columns, CRLF line endings):
  0: "😀 ?[{{ q }} A|B]"            binding `{{ q }}` at 4-11
  1: ""
  2: "😀😀 Use {{ q }} and {{ }}."   reference 7-14, empty marker 19-24
Each emoji is 1 code point, 2 UTF-16 units and 4 UTF-8 bytes. The annotations' carets
count code points, so they stand one column right of the marker per emoji before it.
"""

from __future__ import annotations

import pytest

from tests.kit.memory_client import CourseClient, check_diagnostics, vscode_capabilities

LESSON = (
    "//- lesson.md\r\n"
    "😀 ?[{{ q }} A|B]\r\n"
    "\r\n"
    "😀😀 Use {{ $0q }} and {{ }}.\r\n"
    "%%                   ^^^^^ marker-empty\r\n"
)

# client -> (negotiated encoding, extra units per emoji)
CLIENTS = {
    "visual-studio-code": ("utf-16", 1),
    "neovim@v0.11": ("utf-8", 3),
    "emacs": ("utf-32", 0),
}


def col(code_points: int, emoji: int, extra: int) -> int:
    return code_points + emoji * extra


def at(line: int, character: int) -> dict[str, int]:
    return {"line": line, "character": character}


@pytest.mark.parametrize("client", list(CLIENTS))
def test_columns_after_emoji_in_a_crlf_document(client: str) -> None:
    encoding, extra = CLIENTS[client]
    caps = vscode_capabilities(client=client)
    course = check_diagnostics(LESSON, capabilities=caps, pull=course_pulls(caps))
    assert course.encoding == encoding
    assert course.fixture.files["lesson.md"].count("\r\n") == 3
    (empty,) = course.diagnostics(["lesson.md"])["lesson.md"]
    assert empty["range"] == {"start": at(2, col(19, 2, extra)), "end": at(2, col(24, 2, extra))}

    # Definition from the reference on line 2 lands on the binding on line 0.
    assert course.at()["position"] == at(2, col(10, 2, extra))
    (link,) = course.call("textDocument/definition", course.at())
    assert link["targetSelectionRange"] == {
        "start": at(0, col(7, 1, extra)),
        "end": at(0, col(8, 1, extra)),
    }
    assert link["originSelectionRange"] == {
        "start": at(2, col(7, 2, extra)),
        "end": at(2, col(14, 2, extra)),
    }

    # An edit after the emoji, then one at the end of a CRLF line: fill the empty marker.
    course.versions["lesson.md"] += 1
    changes = [
        {"range": {"start": at(2, col(2, 2, extra)), "end": at(2, col(2, 2, extra))}, "text": "x"},
        {
            "range": {"start": at(2, col(22, 2, extra)), "end": at(2, col(22, 2, extra))},
            "text": "q",
        },
    ]
    course.notify(
        "textDocument/didChange",
        {
            "textDocument": {
                "uri": course.uri("lesson.md"),
                "version": course.versions["lesson.md"],
            },
            "contentChanges": changes,
        },
    )
    assert course.diagnostics(["lesson.md"])["lesson.md"] == []

    hover = course.call(
        "textDocument/hover",
        {"textDocument": {"uri": course.uri("lesson.md")}, "position": at(2, col(23, 2, extra))},
    )
    # `{{q }}` at code points 20-26 after the edit; its key `q` at 22.
    assert hover["range"] == {"start": at(2, col(20, 2, extra)), "end": at(2, col(26, 2, extra))}
    assert hover["contents"]["value"].startswith("```text\nq\n```")


def course_pulls(caps: dict[str, object]) -> bool:
    """Whether the server lets this client pull (it does when the client can)."""
    document = caps.get("textDocument")
    return isinstance(document, dict) and "diagnostic" in document


def test_out_of_range_positions_are_clamped_not_fatal() -> None:
    course = CourseClient(LESSON)
    doc = {"textDocument": {"uri": course.uri("lesson.md")}}
    # Past the end of a line, past the last line, inside a surrogate pair.
    for position in (at(0, 500), at(99, 0), at(2, 1)):
        course.call("textDocument/hover", {**doc, "position": position})
        course.call("textDocument/completion", {**doc, "position": position})
    # A change whose range runs past the end of the document is clamped too.
    course.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": course.uri("lesson.md"), "version": 2},
            "contentChanges": [
                {"range": {"start": at(3, 0), "end": at(40, 9)}, "text": "More {{ q }}"}
            ],
        },
    )
    assert course.call("textDocument/documentSymbol", doc) is not None
    highlights = course.call("textDocument/documentHighlight", {**doc, "position": at(3, 8)})
    assert [(h["range"]["start"]["line"], h["kind"]) for h in highlights] == [
        (0, 3),
        (2, 2),
        (3, 2),
    ]
