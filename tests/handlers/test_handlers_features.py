"""Each capability's answer, in process, on a two-lesson course (VS Code's capabilities).

Moved from tests/e2e/test_e2e_features.py: the same course and the same expectations,
with the hover and the completion lists compared whole (snapshots/features/)."""

from __future__ import annotations

from typing import Any

from tests.kit.course import expect
from tests.kit.memory_client import (
    CourseClient,
    decode_tokens,
    render_completion,
    render_hover,
    vscode_capabilities,
)

KEY = "What would you like to learn?"
COURSE_FILE = """\
//- mfcourse.toml
name = "Demo"
host = "ai-shifu"
target = "current"
lessons = ["01.md", "02.md"]
"""
LESSON_1 = """\
//- 01.md
# Welcome

?[{{ What would you like to learn? }} Python | JavaScript]

## Practice

Use {{ What would you like to learn? }} in an example.
Ask again: {{
"""
LESSON_2 = """\
//- 02.md
# Next

More about {{ What would you like to learn? }}.

?[{{ level }} Easy | Hard]
"""
DEMO = COURSE_FILE + LESSON_1 + LESSON_2


def demo(lesson_1: str = LESSON_1, lesson_2: str = LESSON_2) -> CourseClient:
    return CourseClient(COURSE_FILE + lesson_1 + lesson_2)


def test_server_capabilities() -> None:
    course = CourseClient(DEMO)
    caps = course.initialized["capabilities"]
    assert caps["positionEncoding"] == "utf-16"
    assert caps["textDocumentSync"]["change"] == 2  # incremental
    assert caps["completionProvider"]["triggerCharacters"] == ["{", "[", " ", "/"]
    for provider in ("hover", "definition", "declaration", "references", "documentHighlight"):
        assert caps[f"{provider}Provider"], provider
    assert caps["documentSymbolProvider"] and caps["workspaceSymbolProvider"]
    tokens = caps["semanticTokensProvider"]
    assert tokens["full"] and tokens["range"]
    assert "variable" in tokens["legend"]["tokenTypes"]
    assert "diagnosticProvider" not in caps, "VS Code 1.65 cannot pull: diagnostics are pushed"
    assert caps["workspace"]["workspaceFolders"]
    assert course.initialized["serverInfo"]["name"] == "mfls"


def completion_after_braces() -> tuple[CourseClient, dict[str, Any]]:
    course = demo(LESSON_1.replace("Ask again: {{", "Ask again: {{$0"))
    trigger = {"triggerKind": 2, "triggerCharacter": "{"}
    return course, course.call("textDocument/completion", {**course.at(), "context": trigger})


def test_completion_replaces_what_was_typed() -> None:
    course, result = completion_after_braces()
    expect(render_completion(result), "features/completion_after_braces.txt")
    items = {item["label"]: item for item in result["items"]}
    assert {KEY, "level", "sys_user_nickname"} <= set(items)
    item = items[KEY]
    # Only what is missing after the typed `{{` is written: no client doubles the braces.
    # VS Code takes snippets: the text is one, escaped, without tab stops.
    assert item["insertTextFormat"] == 2
    assert item["textEdit"] == {
        "range": {"start": {"line": 7, "character": 13}, "end": {"line": 7, "character": 13}},
        "newText": " What would you like to learn? \\}\\}",
    }
    assert "filterText" not in item
    # Bound earlier in the course sorts before a host key.
    assert item["sortText"] < items["sys_user_nickname"]["sortText"]
    # VS Code resolves documentation lazily: it comes with completionItem/resolve.
    assert "documentation" not in item
    resolved = course.call("completionItem/resolve", item)
    assert resolved["documentation"]["kind"] == "markdown"
    expect(resolved["documentation"]["value"], "features/completion_resolved.md")
    assert KEY in resolved["documentation"]["value"]


def test_completion_over_an_auto_closed_marker() -> None:
    course = demo(lesson_2=LESSON_2 + "\nAnd {{ le$0}}\n")
    result = course.call("textDocument/completion", course.at())
    expect(render_completion(result), "features/completion_auto_closed.txt")
    (item,) = [i for i in result["items"] if i["label"] == "level"]
    # The typed key is replaced; the closing braces already there stay.
    assert item["textEdit"] == {
        "range": {"start": {"line": 6, "character": 7}, "end": {"line": 6, "character": 9}},
        "newText": "level ",
    }
    # Typed `le`: only the keys holding it are offered, and the list is asked again.
    assert all({"l", "e"} <= set(i["label"].casefold()) for i in result["items"])
    assert result["isIncomplete"]


def test_hover_shows_the_exact_key() -> None:
    course = demo(LESSON_1.replace("Use {{ What", "Use {{ Wh$0at"))
    hover = course.call("textDocument/hover", course.at())
    expect(course.relative(render_hover(hover)), "features/hover_reference.md")
    assert hover["contents"]["kind"] == "markdown"
    assert f"```text\n{KEY}\n```" in hover["contents"]["value"]
    assert hover["range"] == {
        "start": {"line": 6, "character": 4},
        "end": {"line": 6, "character": 39},
    }


def test_definition_and_declaration_are_location_links() -> None:
    course = demo(lesson_2=LESSON_2.replace("{{ What", "{{ Wha$0t"))
    link = {
        "targetUri": course.uri("01.md"),
        "targetRange": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 58}},
        "targetSelectionRange": {
            "start": {"line": 2, "character": 5},
            "end": {"line": 2, "character": 34},
        },
        "originSelectionRange": {
            "start": {"line": 2, "character": 11},
            "end": {"line": 2, "character": 46},
        },
    }
    assert course.call("textDocument/definition", course.at()) == [link]
    assert course.call("textDocument/declaration", course.at()) == [link]


def test_references_with_and_without_the_declaration() -> None:
    course = demo(LESSON_1.replace("?[{{ What", "?[{{ Wh$0at"))

    def references(include: bool) -> list[tuple[str, str]]:
        found = course.call(
            "textDocument/references", {**course.at(), "context": {"includeDeclaration": include}}
        )
        return [(course.path_of(r["uri"]), _span(r["range"])) for r in found]

    uses = [("01.md", "6:7-6:36"), ("02.md", "2:14-2:43")]  # the keys' ranges
    assert references(True) == [("01.md", "2:5-2:34"), *uses]
    assert references(False) == uses


def test_document_highlights_mark_the_binding_as_a_write() -> None:
    course = demo(LESSON_1.replace("Use {{ What would", "Use {{ What $0would"))
    found = course.call("textDocument/documentHighlight", course.at())
    write, read = 3, 2
    assert [(_span(h["range"]), h["kind"]) for h in found] == [
        ("2:5-2:34", write),
        ("6:7-6:36", read),
    ]


def test_document_symbols_nest_interactions_under_headings() -> None:
    course = CourseClient(DEMO)
    found = course.call(
        "textDocument/documentSymbol", {"textDocument": {"uri": course.uri("01.md")}}
    )
    assert _outline(found) == ["Welcome", [KEY, [KEY], "Practice"]]
    (interaction,) = [s for s in found[0]["children"] if s["name"] == KEY]
    assert interaction["detail"] == "single choice: Python | JavaScript"
    assert interaction["children"][0]["detail"] == "binding"


def test_workspace_symbols_name_the_course() -> None:
    course = CourseClient(DEMO)
    found = course.call("workspace/symbol", {"query": "level"})
    matches = [
        (s["containerName"], course.path_of(s["location"]["uri"]))
        for s in found
        if s["name"] == "level"
    ]
    assert matches == [("Demo", "02.md")]


def test_semantic_tokens_full_and_range() -> None:
    course = CourseClient(DEMO)
    legend = course.initialized["capabilities"]["semanticTokensProvider"]["legend"]
    document = {"textDocument": {"uri": course.uri("01.md")}}
    full = course.call("textDocument/semanticTokens/full", document)
    assert _tokens(full["data"], legend) == [
        "2:0 2 operator",
        "2:2 35 variable declaration",
        "2:45 1 operator",
        "2:57 1 operator",
        "6:4 35 variable",
        "7:11 2 variable invalid",
    ]
    line_6 = {"start": {"line": 6, "character": 0}, "end": {"line": 7, "character": 0}}
    ranged = course.call("textDocument/semanticTokens/range", {**document, "range": line_6})
    assert ranged["data"] == [6, 4, 35, 0, 0]


def test_requests_on_unknown_documents_answer_empty() -> None:
    course = CourseClient(DEMO)
    nowhere = {"textDocument": {"uri": "file:///no/such/doc.md"}}
    at = {**nowhere, "position": {"line": 0, "character": 0}}
    for method in ("textDocument/hover", "textDocument/completion", "textDocument/definition"):
        response = course.answer(method, at)
        assert ("result", None) in response.items() and "error" not in response, method


def _span(range_: dict[str, Any]) -> str:
    start, end = range_["start"], range_["end"]
    return f"{start['line']}:{start['character']}-{end['line']}:{end['character']}"


def _outline(symbols: list[dict[str, Any]]) -> list[Any]:
    """Names, each followed by the list of its children's when it has any."""
    out: list[Any] = []
    for symbol in symbols:
        out.append(symbol["name"])
        if symbol.get("children"):
            out.append(_outline(symbol["children"]))
    return out


def _tokens(data: list[int], legend: dict[str, list[str]]) -> list[str]:
    """Semantic tokens decoded: `line:character length type modifiers...`."""
    return [
        " ".join([f"{line}:{char}", str(length), kind, *names])
        for line, char, length, kind, names in decode_tokens(data, legend)
    ]


def test_definition_answers_locations_without_link_support() -> None:
    """Moved from tests/e2e/test_e2e_server.py."""
    caps = vscode_capabilities()
    caps["textDocument"]["definition"]["linkSupport"] = False
    course = CourseClient("?[{{ q }} A | B]\n\nUse {{ $0q }}.\n", capabilities=caps)
    assert course.call("textDocument/definition", course.at()) == [
        {
            "uri": course.uri("01.md"),
            "range": {"start": {"line": 0, "character": 5}, "end": {"line": 0, "character": 6}},
        }
    ]
    # Declaration has its own capability, still with link support.
    (link,) = course.call("textDocument/declaration", course.at())
    assert link["targetUri"] == course.uri("01.md")
