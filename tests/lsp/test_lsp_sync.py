"""The synchronous mode (`mfls.lsp.sync.SyncServer`): the same front end driven one
message at a time, with no thread and no process started; a request still waits for its
document's course, and pushed diagnostics wait for their debounce (`advance`). Under
Pyodide (or with `MFLS_TEST_LOOP=stepped`) the server runs on the browser's loop,
`SteppedLoop`."""

from __future__ import annotations

import concurrent.futures
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from lsprotocol.converters import get_converter
from pytest_lsp import client_capabilities

from mfls.disk import REAL_DISK
from mfls.disk.memory import MemoryDisk
from mfls.lsp.stepped_loop import SteppedLoop
from mfls.lsp.sync import SyncServer
from mfls.workspace import parallel
from mfls.workspace.uris import path_to_uri
from tests.kit.course import no_disk
from tests.kit.memory_client import stepped_loop

# The learner page's checks off (`page = []`): these tests are about the transport.
COURSE = (
    'name = "Demo"\nhost = "ai-shifu"\ntarget = "current"\npage = []\n'
    'lessons = ["01.md", "02.md"]\n'
)
LESSON_1 = "# Welcome\n\n?[{{ topic }} Python | JavaScript]\n\nUse {{ topic }} and {{ topc }}.\n"
LESSON_2 = "# Next\n\nMore about {{ topic }}.\n"
ON_TOPIC = {"line": 4, "character": 8}  # inside `{{ topic }}` of line 5
ON_TOPC = {"line": 4, "character": 23}  # inside `{{ topc }}`, a near miss of `topic`


def new_server() -> SyncServer:
    """A server on CPython's loop, or on `SteppedLoop` where the browser's mode is tested."""
    stepped = sys.platform == "emscripten" or os.environ.get("MFLS_TEST_LOOP") == "stepped"
    return SyncServer(loop=SteppedLoop() if stepped else None)


def vscode(pull: bool) -> dict[str, Any]:
    caps: dict[str, Any] = get_converter().unstructure(client_capabilities("visual-studio-code"))
    if pull:
        caps.setdefault("textDocument", {})["diagnostic"] = {"relatedDocumentSupport": True}
    else:
        caps.get("textDocument", {}).pop("diagnostic", None)
    return caps


class Client:
    """Sends messages to a `SyncServer` and answers what the server asks."""

    def __init__(self, server: SyncServer, answer_requests: bool = True) -> None:
        self.server = server
        self.answer_requests = answer_requests
        self.received: list[dict[str, Any]] = []
        self.asked: list[dict[str, Any]] = []  # server requests not answered yet
        self._id = 0

    def take(self, texts: list[str]) -> list[dict[str, Any]]:
        """Record what the server sent; answer its requests (when answering), and what
        those answers make it send."""
        messages = [json.loads(text) for text in texts]
        self.received += messages
        asks = [m for m in messages if "method" in m and "id" in m]
        self.asked += asks
        if self.answer_requests:
            for _ in asks:
                messages += self.answer_next()
        return messages

    def answer_next(self) -> list[dict[str, Any]]:
        ask = self.asked.pop(0)
        result: list[dict[str, Any]] | None = (
            [{}] if ask["method"] == "workspace/configuration" else None
        )
        return self.take(self.server.handle(json.dumps({**_rpc(ask["id"]), "result": result})))

    def request(self, method: str, params: Any = None) -> list[dict[str, Any]]:
        self._id += 1
        return self.take(self.server.handle(json.dumps(_message(method, params, self._id))))

    def call(self, method: str, params: Any = None) -> Any:
        """The result of a request, answered during `handle`."""
        sent = self.request(method, params)
        answers = [m for m in sent if m.get("id") == self._id and "method" not in m]
        assert len(answers) == 1, sent
        assert "error" not in answers[0], answers[0]
        return answers[0]["result"]

    def notify(self, method: str, params: Any = None) -> list[dict[str, Any]]:
        return self.take(self.server.handle(json.dumps(_message(method, params, None))))


def _rpc(msg_id: int | str | None) -> dict[str, Any]:
    return {"jsonrpc": "2.0"} if msg_id is None else {"jsonrpc": "2.0", "id": msg_id}


def _message(method: str, params: Any, msg_id: int | None) -> dict[str, Any]:
    message = {**_rpc(msg_id), "method": method}
    if params is not None:
        message["params"] = params
    return message


def write_course(root: Path) -> str:
    (root / "mfcourse.toml").write_text(COURSE)
    (root / "01.md").write_text(LESSON_1)
    (root / "02.md").write_text(LESSON_2)
    return path_to_uri(str(root / "01.md"))


def start(root: Path, pull: bool, answer_requests: bool = True) -> tuple[Client, str]:
    uri = write_course(root)
    client = Client(new_server(), answer_requests)
    folders = [{"uri": path_to_uri(str(root)), "name": "course"}]
    result = client.call("initialize", {"capabilities": vscode(pull), "workspaceFolders": folders})
    assert result["serverInfo"]["name"] == "mfls"
    client.notify("initialized", {})
    return client, uri


def opened(client: Client, uri: str, text: str = LESSON_1) -> list[dict[str, Any]]:
    item = {"uri": uri, "languageId": "markdown", "version": 1, "text": text}
    return client.notify("textDocument/didOpen", {"textDocument": item})


@pytest.fixture
def pull_session(tmp_path: Path) -> tuple[Client, str]:
    client, uri = start(tmp_path, pull=True)
    opened(client, uri)
    return client, uri


def test_initialized_indexes_inline_and_asks_the_client(tmp_path: Path) -> None:
    client, _ = start(tmp_path, pull=True)
    asked = [m["method"] for m in client.received if "method" in m and "id" in m]
    assert asked == [
        "workspace/configuration",
        "client/registerCapability",
        "window/workDoneProgress/create",
    ]
    kinds = [
        m["params"]["value"]["kind"] for m in client.received if m.get("method") == "$/progress"
    ]
    assert kinds[0] == "begin" and kinds[-1] == "end"
    assert client.server.server.courses.snapshot.course_of  # indexed by the time it returns


def test_pulled_diagnostics(pull_session: tuple[Client, str]) -> None:
    client, uri = pull_session
    report = client.call("textDocument/diagnostic", {"textDocument": {"uri": uri}})
    assert report["kind"] == "full"
    found = [(d["code"], d["range"]["start"]) for d in report["items"]]
    assert found == [("near-miss", {"line": 4, "character": 20})]


def test_hover_completion_definition_references(pull_session: tuple[Client, str]) -> None:
    client, uri = pull_session
    at = {"textDocument": {"uri": uri}, "position": ON_TOPIC}
    hover = client.call("textDocument/hover", at)
    assert hover["contents"]["value"].startswith("```text\ntopic\n```")
    assert "Read 2 times in 2 documents of Demo." in hover["contents"]["value"]
    completion = client.call("textDocument/completion", at)
    assert "topic" in [item["label"] for item in completion["items"]]
    (definition,) = client.call("textDocument/definition", at)
    assert definition["targetUri"] == uri
    assert definition["targetSelectionRange"]["start"] == {"line": 2, "character": 5}
    references = client.call(
        "textDocument/references", {**at, "context": {"includeDeclaration": True}}
    )
    places = sorted((r["uri"].rsplit("/", 1)[-1], r["range"]["start"]["line"]) for r in references)
    assert places == [("01.md", 2), ("01.md", 4), ("02.md", 2)]


def test_a_server_given_a_disk_reads_the_course_from_it() -> None:
    """`SyncServer(disk=...)`: the workspace reads that disk, not the file system (out of
    reach here): the closed lesson's reference and the course file's name come from it."""
    root = "/memory/course"
    disk = MemoryDisk({f"{root}/mfcourse.toml": COURSE, f"{root}/02.md": LESSON_2})
    client = Client(SyncServer(loop=SteppedLoop() if stepped_loop() else None, disk=disk))
    assert client.server.server.courses.disk is disk
    uri, caps = path_to_uri(f"{root}/01.md"), vscode(pull=True)
    with no_disk():
        folders = [{"uri": path_to_uri(root), "name": "course"}]
        client.call("initialize", {"capabilities": caps, "workspaceFolders": folders})
        client.notify("initialized", {})
        opened(client, uri)
        at = {"textDocument": {"uri": uri}, "position": ON_TOPIC}
        hover = client.call("textDocument/hover", at)
    assert "Read 2 times in 2 documents of Demo." in hover["contents"]["value"]


def test_the_server_reads_the_file_system_unless_given_a_disk() -> None:
    assert new_server().server.courses.disk is REAL_DISK


def test_rename_and_code_action(pull_session: tuple[Client, str]) -> None:
    client, uri = pull_session
    at = {"textDocument": {"uri": uri}, "position": ON_TOPIC}
    edit = client.call("textDocument/rename", {**at, "newName": "subject"})
    edits = {
        change["textDocument"]["uri"].rsplit("/", 1)[-1]: [e["newText"] for e in change["edits"]]
        for change in edit["documentChanges"]
    }
    assert edits == {"01.md": ["{{ subject }}", "{{ subject }}"], "02.md": ["{{ subject }}"]}
    near = {"start": ON_TOPC, "end": ON_TOPC}
    actions = client.call(
        "textDocument/codeAction",
        {"textDocument": {"uri": uri}, "range": near, "context": {"diagnostics": []}},
    )
    assert "Replace with {{ topic }}" in [action["title"] for action in actions]


def test_course_commands(pull_session: tuple[Client, str]) -> None:
    client, uri = pull_session
    info = client.call(
        "workspace/executeCommand", {"command": "mfls.courseInfo", "arguments": [uri]}
    )
    assert (info["name"], info["lessons"], info["questions"]) == ("Demo", 2, 2)
    keys = client.call(
        "workspace/executeCommand", {"command": "mfls.courseKeys", "arguments": [uri]}
    )
    assert keys["course"] == "Demo"
    course_map = client.call(
        "workspace/executeCommand", {"command": "mfls.courseMap", "arguments": [uri]}
    )
    assert course_map["html"].startswith("<!DOCTYPE html>")


def test_shutdown_then_exit(pull_session: tuple[Client, str]) -> None:
    client, _ = pull_session
    assert client.call("shutdown") is None
    assert client.notify("exit") == []
    assert client.server.exit_code == 0
    assert client.server.handle(json.dumps(_message("shutdown", None, 99))) == []


def test_exit_without_shutdown_is_code_1(tmp_path: Path) -> None:
    client, _ = start(tmp_path, pull=True)
    client.notify("exit")
    assert client.server.exit_code == 1


def test_pushed_diagnostics_wait_for_the_debounce(tmp_path: Path) -> None:
    client, uri = start(tmp_path, pull=False)
    client.received.clear()
    opened(client, uri)
    assert not [m for m in client.received if m.get("method") == "textDocument/publishDiagnostics"]
    delay = client.server.next_timer()
    assert delay is not None and 0 < delay <= 0.15
    client.take(client.server.advance(delay))
    published = {
        m["params"]["uri"].rsplit("/", 1)[-1]: (m["params"]["version"], m["params"]["diagnostics"])
        for m in client.received
        if m.get("method") == "textDocument/publishDiagnostics"
    }
    version, items = published["01.md"]
    assert version == 1 and [d["code"] for d in items] == ["near-miss"]
    client.received.clear()
    change = {"range": {"start": ON_TOPC, "end": ON_TOPC}, "text": "i"}  # topc -> toipc
    client.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [change]},
    )
    client.take(client.server.advance(0.2))
    (sent,) = [m for m in client.received if m.get("method") == "textDocument/publishDiagnostics"]
    assert sent["params"]["version"] == 2


def test_a_request_waits_for_its_course(tmp_path: Path) -> None:
    """Before the client answers `workspace/configuration`, indexing has not begun: a
    hover waits (no answer), and is answered once the answer lets indexing run."""
    client, uri = start(tmp_path, pull=True, answer_requests=False)
    assert [m["method"] for m in client.asked] == ["workspace/configuration"]
    opened(client, uri)
    at = {"textDocument": {"uri": uri}, "position": ON_TOPIC}
    assert client.request("textDocument/hover", at) == []
    client.answer_requests = True
    sent = client.answer_next()
    (hover,) = [m for m in sent if m.get("id") == 2 and "result" in m]
    assert "Read 2 times in 2 documents of Demo." in hover["result"]["contents"]["value"]


def test_no_thread_and_no_process_is_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads_before = threading.active_count()
    started: list[str] = []

    def no_thread(self: threading.Thread) -> None:
        started.append(f"thread {self.name}")
        raise AssertionError("a thread was started")

    class NoProcesses(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            started.append("process pool")
            super().__init__(*args, **kwargs)

    def no_submit(self: concurrent.futures.Executor, *args: Any, **kwargs: Any) -> Any:
        started.append("thread pool")
        raise AssertionError("a thread pool was used")

    monkeypatch.setattr(threading.Thread, "start", no_thread)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", NoProcesses)
    monkeypatch.setattr(concurrent.futures.ThreadPoolExecutor, "submit", no_submit)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_CHARS", 0)  # processes for any size
    monkeypatch.setattr(parallel, "default_jobs", lambda: 4)
    client, uri = start(tmp_path, pull=False)
    opened(client, uri)
    client.take(client.server.advance(0.2))
    assert any(m.get("method") == "textDocument/publishDiagnostics" for m in client.received)
    watched = {"changes": [{"uri": path_to_uri(str(tmp_path / "02.md")), "type": 2}]}
    client.notify("workspace/didChangeWatchedFiles", watched)
    assert client.call("shutdown") is None
    client.notify("exit")
    assert started == []
    assert threading.active_count() == threads_before


def test_the_check_would_see_a_process_pool(monkeypatch: pytest.MonkeyPatch) -> None:
    """The patch above is where the workspace looks for it: with jobs and no size floor,
    scanning starts a process pool (here refused at once)."""
    started: list[str] = []

    class Refused(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            started.append("process pool")
            raise OSError("no processes in this test")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", Refused)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_CHARS", 0)
    monkeypatch.setattr(parallel, "fork_safe", lambda: False)  # as on the server's thread
    assert len(list(parallel.scan_texts(["{{ a }}", "{{ b }}"], jobs=2))) == 2
    assert started == ["process pool"]
