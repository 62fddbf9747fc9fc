"""Settings, in process: `initializationOptions` first, then `workspace/configuration`,
which wins; bad values are logged and ignored. Moved from tests/e2e/test_e2e_server.py."""

from __future__ import annotations

from tests.kit.memory_client import CourseClient, vscode_capabilities


def logged(course: CourseClient) -> list[str]:
    return [
        m["params"]["message"] for m in course.received if m.get("method") == "window/logMessage"
    ]


def test_settings_from_initialization_options_then_configuration() -> None:
    course = CourseClient(
        "Use {{ x }}.\n",
        initialization_options={"mfls": {"logLevel": "info"}},
        settings={"logLevel": "warning"},
    )
    # initializationOptions (info) applied during initialize: its start-up line arrived.
    assert any("push diagnostics" in m for m in logged(course))
    # workspace/configuration (warning) then wins: no info line for the indexing.
    assert not any("documents in" in m for m in logged(course))

    course.settings = {"logLevel": "debug", "diagnosticDelay": 0}
    course.notify("workspace/didChangeConfiguration", {"settings": None})
    course.settle()
    changed = [{"uri": course.uri("01.md"), "type": 2}]
    course.notify("workspace/didChangeWatchedFiles", {"changes": changed})
    course.settle()
    assert any("documents in" in m for m in logged(course))


def test_bad_settings_are_reported_and_ignored() -> None:
    course = CourseClient(
        "",
        capabilities=vscode_capabilities(client="emacs"),
        initialization_options={"logLevel": "loud", "diagnosticDelay": -5},
    )
    messages = " ".join(logged(course))
    assert "mfls.logLevel" in messages
    assert "mfls.diagnosticDelay" in messages
