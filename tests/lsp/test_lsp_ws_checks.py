"""The checks of `mfls serve --ws`, in process: who may connect (`mfls.lsp.handshake`) and
what a connected client may name (`mfls.lsp.confinement`)."""

from __future__ import annotations

import json
from http import HTTPStatus
from pathlib import Path
from typing import Any

import pytest

from mfls.lsp.confinement import OUTSIDE_ROOT, CourseRoot
from mfls.lsp.handshake import DEFAULT_ORIGINS, new_token, origin_allowed, refusal


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("http://localhost:5173", True),
        ("http://LOCALHOST:5173", True),
        ("http://localhost", True),
        ("http://127.0.0.1:8000", True),
        ("http://[::1]:8000", True),
        ("https://localhost:5173", False),  # another scheme is another origin
        ("http://localhost.evil.example", False),
        ("http://localhost:5173.evil.example", False),
        ("http://127.0.0.1.evil.example:80", False),
        ("http://evil.example", False),
        ("null", False),
        ("", False),
    ],
)
def test_the_default_origins_are_this_machines_pages(origin: str, allowed: bool) -> None:
    assert origin_allowed(origin, DEFAULT_ORIGINS) is allowed


def test_an_added_origin_is_matched_exactly() -> None:
    allowed = [*DEFAULT_ORIGINS, "https://shifu.example/"]
    assert origin_allowed("https://shifu.example", allowed)
    assert not origin_allowed("https://shifu.example:8443", allowed)
    assert not origin_allowed("https://www.shifu.example", allowed)
    assert origin_allowed("null", ["null"])


def test_the_token_is_required_and_compared_whole() -> None:
    token = new_token()
    assert len(token) >= 40 and token != new_token()
    good = f"/?token={token}"
    assert refusal(good, "http://localhost:3000", token, DEFAULT_ORIGINS) is None
    assert refusal(good, None, token, DEFAULT_ORIGINS) is None  # not a browser
    missing = refusal("/", None, token, DEFAULT_ORIGINS)
    assert missing is not None and missing[0] == HTTPStatus.UNAUTHORIZED
    for path in (f"/?token={token[:-1]}", f"/?token={token}x", f"{good}&token=x", "/?token="):
        why = refusal(path, None, token, DEFAULT_ORIGINS)
        assert why is not None and why[0] in (HTTPStatus.FORBIDDEN, HTTPStatus.UNAUTHORIZED)
    foreign = refusal(good, "https://evil.example", token, DEFAULT_ORIGINS)
    assert foreign is not None and foreign[0] == HTTPStatus.FORBIDDEN
    assert "evil.example" in foreign[1]


@pytest.fixture
def root(tmp_path: Path) -> CourseRoot:
    (tmp_path / "course").mkdir()
    (tmp_path / "course" / "a.md").write_text("# A\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "b.md").write_text("# B\n")
    (tmp_path / "course" / "link.md").symlink_to(tmp_path / "outside" / "b.md")
    return CourseRoot(str(tmp_path / "course"))


def body(message: dict[str, Any]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", **message}).encode()


def open_params(uri: str, text: str = "# x\n") -> dict[str, Any]:
    return {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}


def test_initialize_is_given_the_root_whatever_the_client_names(root: CourseRoot) -> None:
    params = {
        "processId": 7,
        "rootUri": "file:///etc",
        "rootPath": "/etc",
        "workspaceFolders": [{"uri": "file:///", "name": "all"}],
        "capabilities": {"general": {}},
    }
    screened = root.screen(body({"id": 1, "method": "initialize", "params": params}))
    assert screened.body is not None and screened.answer is None
    sent = json.loads(screened.body)["params"]
    assert sent["rootUri"] == root.uri and sent["rootPath"] == root.path
    assert sent["workspaceFolders"] == [{"uri": root.uri, "name": "course"}]
    assert sent["processId"] == 7 and sent["capabilities"] == {"general": {}}


def test_workspace_folder_changes_are_dropped(root: CourseRoot) -> None:
    added = {"event": {"added": [{"uri": root.uri, "name": "c"}], "removed": []}}
    screened = root.screen(body({"method": "workspace/didChangeWorkspaceFolders", "params": added}))
    assert screened.body is None and screened.answer is None
    assert screened.reason is not None


@pytest.mark.parametrize(
    "uri",
    [
        "file:///etc/passwd",
        "FILE:///etc/passwd",
        " file:///etc/passwd",
        "fi\tle:///etc/passwd",
        "file://host/etc/passwd",
        "file:etc/passwd",
        "{root}/../outside/b.md",
        "{root}/%2E%2E/outside/b.md",
        "{root}/link.md",
        "{root}x/a.md",
    ],
)
def test_a_file_outside_the_root_is_refused(root: CourseRoot, uri: str) -> None:
    uri = uri.format(root=root.uri)
    request = {"id": "r1", "method": "textDocument/definition"}
    position = {"line": 0, "character": 0}
    screened = root.screen(
        body({**request, "params": {"textDocument": {"uri": uri}, "position": position}})
    )
    assert screened.body is None
    assert screened.answer is not None and screened.answer["id"] == "r1"
    assert screened.answer["error"]["code"] == OUTSIDE_ROOT
    dropped = root.screen(body({"method": "textDocument/didOpen", "params": open_params(uri)}))
    assert dropped.body is None and dropped.answer is None and dropped.reason is not None


@pytest.mark.parametrize(
    "params",
    [
        {"command": "mfls.courseInfo", "arguments": [{"uri": "file:///etc/x.md"}]},
        {"command": "mfls.courseInfo", "arguments": ["file:///etc/x.md"]},
        {"files": [{"oldUri": "{root}/a.md", "newUri": "file:///tmp/a.md"}]},
        {"edit": {"changes": {"file:///etc/x.md": []}}},
    ],
)
def test_a_uri_anywhere_in_the_params_is_checked(root: CourseRoot, params: Any) -> None:
    text = json.dumps(params).replace("{root}", root.uri)
    screened = root.screen(body({"id": 3, "method": "any/method", "params": json.loads(text)}))
    assert screened.answer is not None and screened.body is None


def test_what_stays_inside_passes_unchanged(root: CourseRoot) -> None:
    for message in (
        {"method": "textDocument/didOpen", "params": open_params(f"{root.uri}/a.md")},
        {"method": "textDocument/didOpen", "params": open_params(f"{root.uri}/new/b.md")},
        # A lesson may mention any URI: its text is no file the server reads.
        {"method": "textDocument/didOpen", "params": open_params("untitled:1", "file:///etc")},
        {
            "method": "textDocument/didChange",
            "params": {
                "textDocument": {"uri": f"{root.uri}/a.md", "version": 2},
                "contentChanges": [{"text": "see file:///etc/passwd"}],
            },
        },
        {"id": 4, "result": [{"uri": f"{root.uri}/a.md"}]},
    ):
        data = body(message)
        assert root.screen(data).body == data


def test_a_response_naming_a_file_outside_is_dropped(root: CourseRoot) -> None:
    screened = root.screen(body({"id": 5, "result": [{"uri": "file:///etc/passwd"}]}))
    assert screened.body is None and screened.answer is None and screened.reason is not None


@pytest.mark.parametrize("data", [b"not json", b"[1, 2]", b'"text"', b"{"])
def test_what_is_no_message_passes_to_the_protocol_to_answer(root: CourseRoot, data: bytes) -> None:
    assert root.screen(data).body == data
