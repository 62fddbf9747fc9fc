"""Pull or push diagnostics, chosen by the client's capabilities, never both; their
content, severities and related information. In process; moved from
tests/e2e/test_e2e_diagnostics.py."""

from __future__ import annotations

from typing import Any

from tests.kit.memory_client import CourseClient, check_diagnostics, vscode_capabilities

LESSON = """
    # One

    ?[{{ colour }} Red | Blue]

    Use {{ colour }} and {{ size }}.
    %%                   ^^^^^^^^^^ unbound-reference: No lesson asks “size”
    """
WARNING, INFORMATION, HINT, ERROR = 2, 3, 4, 1
DEPRECATED = 2


def publishes(course: CourseClient) -> list[dict[str, Any]]:
    return [
        m["params"] for m in course.received if m.get("method") == "textDocument/publishDiagnostics"
    ]


def test_a_pull_client_pulls_and_gets_unchanged_reports() -> None:
    caps = vscode_capabilities(pull=True)
    caps.setdefault("workspace", {})["diagnostics"] = {"refreshSupport": True}
    course = check_diagnostics(LESSON, capabilities=caps)
    assert course.initialized["capabilities"]["diagnosticProvider"]["interFileDependencies"]
    uri = {"textDocument": {"uri": course.uri("01.md")}}
    first = course.call("textDocument/diagnostic", uri)
    (unbound,) = first["items"]
    assert (unbound["source"], unbound["severity"]) == ("mfls", WARNING)
    assert first["resultId"]

    again = course.call("textDocument/diagnostic", {**uri, "previousResultId": first["resultId"]})
    assert again == {"kind": "unchanged", "resultId": first["resultId"]}

    course.change("01.md", 4, 24, 28, "colour")  # {{ size }} -> {{ colour }}
    changed = course.call("textDocument/diagnostic", {**uri, "previousResultId": first["resultId"]})
    assert (changed["kind"], changed["items"]) == ("full", [])
    course.settle()
    assert publishes(course) == [], "a pull client must not also get pushed diagnostics"
    # Indexing finished after start-up: the server asked the client to pull again.
    refreshes = [m for m in course.received if m.get("method") == "workspace/diagnostic/refresh"]
    assert len(refreshes) >= 1


def test_a_push_client_gets_versioned_publishes_only_when_they_change() -> None:
    course = check_diagnostics(LESSON, pull=False)
    assert "diagnosticProvider" not in course.initialized["capabilities"]
    (first,) = publishes(course)
    assert first["version"] == 1
    assert [d["code"] for d in first["diagnostics"]] == ["unbound-reference"]

    # A change that leaves the diagnostics as they were publishes nothing.
    course.change("01.md", 0, 5, 5, "!")
    course.settle()
    assert len(publishes(course)) == 1

    # Several quick edits: one publish, for the last version.
    for n in range(3):
        course.change("01.md", 4, 0, 0, f"{{{{ k{n} }}}} ")
    course.settle()
    assert len(publishes(course)) == 2
    last = publishes(course)[-1]
    assert last["version"] == course.versions["01.md"] == 5
    assert len(last["diagnostics"]) == 4

    # Closed, it has the diagnostics of the file on disk, without a version.
    course.notify("textDocument/didClose", {"textDocument": {"uri": course.uri("01.md")}})
    course.settle()
    closed = publishes(course)[-1]
    assert "version" not in closed
    assert [d["code"] for d in closed["diagnostics"]] == ["unbound-reference"]


def test_a_client_that_checks_versions_gets_each_new_version_even_with_the_same_list() -> None:
    # CodeMirror's lsp-client (the playground) declares versionSupport and drops a list
    # of an older version than its text: each version it reaches must get its list.
    caps = vscode_capabilities(pull=False)
    caps["textDocument"]["publishDiagnostics"]["versionSupport"] = True
    course = check_diagnostics(LESSON, pull=False, capabilities=caps)
    assert [p["version"] for p in publishes(course)] == [1]

    course.change("01.md", 0, 5, 5, "!")  # the same problems, at version 2
    course.settle()
    again = publishes(course)[-1]
    assert again["version"] == 2
    assert [d["code"] for d in again["diagnostics"]] == ["unbound-reference"]

    course.notify("workspace/didChangeConfiguration", {"settings": {}})
    course.settle()
    assert len(publishes(course)) == 2, "the version did not move: nothing is sent again"


def test_a_course_severity_override_applies() -> None:
    course = check_diagnostics(
        """
        //- mfcourse.toml
        [diagnostics]
        unbound-reference = "error"
        legacy-binding = "off"
        //- a.md
        ?[%{{ old }} A | B]

        Use {{ old }} and {{ missing }}.
        %%                ^^^^^^^^^^^^^ unbound-reference
        """,
        client="neovim@v0.11",
    )
    (unbound,) = course.diagnostics(["a.md"])["a.md"]
    assert unbound["severity"] == ERROR


def test_legacy_bindings_are_deprecated_hints() -> None:
    course = check_diagnostics(
        """
        ?[%{{ old }} A | B]
        %%^^^^^^^^^^ legacy-binding

        Use {{ old }}.
        """,
        client="neovim@v0.11",
    )
    (legacy,) = course.diagnostics(["01.md"])["01.md"]
    assert legacy["severity"] == HINT
    assert legacy["tags"] == [DEPRECATED]


def test_related_information_points_at_the_binding() -> None:
    course = check_diagnostics(
        """
        //- 01.md
        Use {{ name }} first.
        %%  ^^^^^^^^^^ read-before-asked
        //- 02.md
        ?[{{ name }} ...your name]
        """,
        client="neovim@v0.11",
    )
    (early,) = course.diagnostics(["01.md"])["01.md"]
    assert early["severity"] == INFORMATION
    (related, *_) = early["relatedInformation"]
    assert course.path_of(related["location"]["uri"]) == "02.md"
    assert related["location"]["range"]["start"] == {"line": 0, "character": 5}
