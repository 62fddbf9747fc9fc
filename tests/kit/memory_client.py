"""The server in process on a course text, in memory: the client of the handler tests.

`CourseClient(fixture)` (a course text, `tests.kit.course`) puts the files in a
`MemoryDisk` folder `/course` (its name is the course's when the course file gives none;
`CourseClient(root, fixture)` puts it under `root` instead), starts a `SyncServer` (on the
`SteppedLoop` the playground's worker gives it under Pyodide or with
`MFLS_TEST_LOOP=stepped`, else on CPython's own loop) reading that disk, with a real
client's captured capabilities, initializes it with that folder, answers what the server
asks, and opens every `.md` file that is not `closed`. It speaks only JSON-RPC, as an
editor does. `on_disk=True` writes the files under `root` (pytest's `tmp_path`) and
serves them from the real file system instead: for the tests whose subject is the disk.

`check_diagnostics` compares the server's diagnostics with the annotations and fails with
both rendered as annotated text. `render_hover` and `render_completion` turn answers
into text that reads as the editor shows it, for `tests.kit.course.expect`.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from lsprotocol.converters import get_converter
from lsprotocol.types import CompletionItemKind
from pytest_lsp import client_capabilities

from mfls.disk.memory import MemoryDisk
from mfls.lsp.stepped_loop import SteppedLoop
from mfls.lsp.sync import SyncServer
from mfls.workspace.uris import path_to_uri
from tests.kit.course import Annotation, Cursor, Fixture, compare, lines_of, parse

# Long enough for any debounce or refresh the server sets; how far `settle` lets time run.
SETTLE_SECONDS = 2.0


def stepped_loop() -> bool:
    """Whether servers run on `SteppedLoop`, as in the browser: always under Pyodide,
    whose own loop cannot block, and on CPython when `MFLS_TEST_LOOP=stepped`."""
    return sys.platform == "emscripten" or os.environ.get("MFLS_TEST_LOOP") == "stepped"


def vscode_capabilities(pull: bool | None = None, client: str = "visual-studio-code") -> Any:
    """A real client's captured capabilities as JSON; `pull` adds or removes pulled
    diagnostics."""
    caps: dict[str, Any] = get_converter().unstructure(client_capabilities(client))
    document = caps.setdefault("textDocument", {})
    if pull is True:
        document["diagnostic"] = {"relatedDocumentSupport": True}
    elif pull is False:
        document.pop("diagnostic", None)
    return caps


class CourseClient:
    """The server in process on a course text (see the module docstring)."""

    disk: MemoryDisk | None = None
    """The files the server reads, when in memory."""

    def __init__(
        self,
        root: Path | str,
        fixture: str | Fixture | None = None,
        *,
        capabilities: Any = None,
        settings: Mapping[str, Any] | None = None,
        initialization_options: Any = None,
        locale: str | None = None,
        folder: str = "course",
        folders: Iterable[str] = ("",),
        on_disk: bool = False,
    ) -> None:
        """`CourseClient(fixture)` or `CourseClient(root, fixture)`: the course folder
        `folder` under `root` (`/` by default), in memory unless `on_disk`."""
        if fixture is None:
            root, fixture = Path("/"), root
        assert isinstance(root, Path), "the root is a Path, the course text a str"
        self.fixture = parse(fixture) if isinstance(fixture, str) else fixture
        self.root = root / folder
        self.settings = dict(settings or {})
        loop = SteppedLoop() if stepped_loop() else None
        self.buffers: dict[str, str] = {}  # texts opened other than the fixture's
        self.received: list[dict[str, Any]] = []
        self._id = 0
        if on_disk:
            self.server = SyncServer(loop=loop)
            for path, text in self.fixture.files.items():
                target = self.root / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(text.encode("utf-8"))
        else:
            files = {str(self.root / path): text for path, text in self.fixture.files.items()}
            self.disk: MemoryDisk | None = MemoryDisk(files)
            self.server = SyncServer(loop=loop, disk=self.disk)
        params: dict[str, Any] = {
            "capabilities": vscode_capabilities() if capabilities is None else capabilities,
            "workspaceFolders": [self.folder(name) for name in folders],
        }
        if initialization_options is not None:
            params["initializationOptions"] = initialization_options
        if locale is not None:
            params["locale"] = locale
        self.initialized = self.call("initialize", params)
        self.notify("initialized", {})
        self.versions: dict[str, int] = {}
        for path in self.fixture.files:
            if path.endswith(".md") and path not in self.fixture.closed:
                self.open(path)

    # Paths, positions and the cursor.

    def folder(self, path: str) -> dict[str, str]:
        """A workspace folder: `path` under the course folder ("" for itself)."""
        return {"uri": self.uri(path), "name": path or self.root.name}

    def uri(self, path: str) -> str:
        return path_to_uri(str(self.root / path) if path else str(self.root))

    def path_of(self, uri: str) -> str:
        return Path(uri.removeprefix("file://")).relative_to(self.root).as_posix()

    @property
    def encoding(self) -> str:
        return str(self.initialized["capabilities"].get("positionEncoding", "utf-16"))

    def position(self, path: str, line: int, column: int) -> dict[str, int]:
        """The LSP position of a code point column of `path`'s text."""
        lines = lines_of(self.text(path))
        text = lines[line] if line < len(lines) else ""
        return {"line": line, "character": _units(text[:column], self.encoding)}

    def column(self, path: str, position: Mapping[str, int]) -> int:
        """The code point column of an LSP position of `path`'s text."""
        lines = lines_of(self.text(path))
        text = lines[position["line"]] if position["line"] < len(lines) else ""
        units = 0
        for column, char in enumerate(text):
            if units >= position["character"]:
                return column
            units += _units(char, self.encoding)
        return len(text)

    def relative(self, text: str) -> str:
        """`text` with the course folder's URI and path written `file:///course` and
        `/course`, as a snapshot keeps them."""
        return text.replace(path_to_uri(str(self.root)), "file:///course").replace(
            str(self.root), "/course"
        )

    def text(self, path: str) -> str:
        """The text the client holds: the buffer opened, else the fixture's file."""
        return self.buffers.get(path, self.fixture.files[path])

    def position_at(self, path: str, offset: int) -> dict[str, int]:
        """The LSP position of a code point offset of `path`'s text."""
        lines = lines_of(self.text(path)[:offset], keepends=True)
        if not lines:
            return self.position(path, 0, 0)
        if lines[-1].endswith(("\n", "\r")):
            return self.position(path, len(lines), 0)
        return self.position(path, len(lines) - 1, len(lines[-1]))

    def offset_of(self, path: str, position: Mapping[str, int]) -> int:
        """The code point offset of an LSP position of `path`'s text."""
        lines = lines_of(self.text(path), keepends=True)
        return sum(len(x) for x in lines[: position["line"]]) + self.column(path, position)

    def quick_fixes(self, path: str, offset: int) -> list[dict[str, Any]]:
        """The quick fixes the server offers at a code point offset of `path`."""
        position = self.position_at(path, offset)
        found = self.call(
            "textDocument/codeAction",
            {
                "textDocument": {"uri": self.uri(path)},
                "range": {"start": position, "end": position},
                "context": {"diagnostics": [], "only": ["quickfix"]},
            },
        )
        return list(found or [])

    def applied(self, edit: Mapping[str, Any]) -> dict[str, str]:
        """Path -> its text after a `WorkspaceEdit` (`documentChanges` or `changes`; a
        snippet edit applied as its snippet's text)."""
        per_path: dict[str, list[Mapping[str, Any]]] = {}
        for change in edit.get("documentChanges") or []:
            uri = change["textDocument"]["uri"]
            per_path.setdefault(self.path_of(uri), []).extend(change["edits"])
        for uri, edits in (edit.get("changes") or {}).items():
            per_path.setdefault(self.path_of(uri), []).extend(edits)
        texts = {}
        for path, edits in per_path.items():
            text = self.text(path)
            spans = [
                (
                    self.offset_of(path, e["range"]["start"]),
                    self.offset_of(path, e["range"]["end"]),
                    e["snippet"]["value"] if "snippet" in e else e["newText"],
                )
                for e in edits
            ]
            for start, end, new in sorted(spans, reverse=True):
                text = text[:start] + new + text[end:]
            texts[path] = text
        return texts

    @property
    def cursor(self) -> Cursor:
        assert self.fixture.cursor is not None, "the fixture has no $0"
        return self.fixture.cursor

    def at(self) -> dict[str, Any]:
        """`TextDocumentPositionParams` at the cursor."""
        cursor = self.cursor
        return {
            "textDocument": {"uri": self.uri(cursor.path)},
            "position": self.position(cursor.path, cursor.line, cursor.column),
        }

    # Messages.

    def take(self, texts: list[str]) -> list[dict[str, Any]]:
        """Record what the server sent, answer its requests and record what that makes
        it send."""
        messages = [json.loads(text) for text in texts]
        self.received += messages
        for ask in [m for m in messages if "method" in m and "id" in m]:
            answer = {"jsonrpc": "2.0", "id": ask["id"], "result": self._answer(ask)}
            messages += self.take(self.server.handle(json.dumps(answer)))
        return messages

    def _answer(self, ask: dict[str, Any]) -> Any:
        if ask["method"] == "workspace/configuration":
            return [self.settings for _ in ask["params"]["items"]]
        return None

    def request(self, method: str, params: Any = None) -> list[dict[str, Any]]:
        self._id += 1
        message = {"jsonrpc": "2.0", "id": self._id, "method": method}
        if params is not None:
            message["params"] = params
        return self.take(self.server.handle(json.dumps(message)))

    def answer(self, method: str, params: Any = None) -> dict[str, Any]:
        """The response to a request (its `result` or its `error`)."""
        sent = self.request(method, params)
        (response,) = [m for m in sent if m.get("id") == self._id and "method" not in m]
        return response

    def call(self, method: str, params: Any = None) -> Any:
        """The result of a request, which must not fail."""
        response = self.answer(method, params)
        assert "error" not in response, response
        return response["result"]

    def notify(self, method: str, params: Any = None) -> list[dict[str, Any]]:
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        return self.take(self.server.handle(json.dumps(message)))

    def settle(self, seconds: float = SETTLE_SECONDS) -> list[dict[str, Any]]:
        """Let the server's timers run (debounces, refreshes) until none is due within
        `seconds`; what it sent meanwhile."""
        sent: list[dict[str, Any]] = []
        waited = 0.0
        while (delay := self.server.next_timer()) is not None and waited + delay <= seconds:
            waited += delay
            sent += self.take(self.server.advance(delay))
        return sent

    def open(
        self, path: str, text: str | None = None, language: str = "markdown", version: int = 1
    ) -> str:
        uri = self.uri(path)
        self.versions[path] = version
        if text is not None:
            self.buffers[path] = text
        item = {
            "uri": uri,
            "languageId": language,
            "version": version,
            "text": self.text(path),
        }
        self.notify("textDocument/didOpen", {"textDocument": item})
        return uri

    def change(self, path: str, line: int, start: int, end: int, text: str) -> None:
        """Replace code point columns `start`..`end` of `line` of an open document (the
        fixture's text is kept as it is: positions after the change are the caller's)."""
        self.versions[path] += 1
        change = {
            "range": {
                "start": self.position(path, line, start),
                "end": self.position(path, line, end),
            },
            "text": text,
        }
        self.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": self.uri(path), "version": self.versions[path]},
                "contentChanges": [change],
            },
        )

    # Diagnostics.

    @property
    def pulls(self) -> bool:
        return self.initialized["capabilities"].get("diagnosticProvider") is not None

    def published(self) -> dict[str, dict[str, Any]]:
        """The last `publishDiagnostics` params per path."""
        return {
            self.path_of(m["params"]["uri"]): m["params"]
            for m in self.received
            if m.get("method") == "textDocument/publishDiagnostics"
        }

    def diagnostics(self, paths: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
        """The diagnostics of `paths` as the client gets them: pulled when the server
        offers pulls, else pushed (its timers run first)."""
        if self.pulls:
            reports = {
                path: self.call(
                    "textDocument/diagnostic", {"textDocument": {"uri": self.uri(path)}}
                )
                for path in paths
            }
            assert all(r["kind"] == "full" for r in reports.values()), reports
            return {path: report["items"] for path, report in reports.items()}
        self.settle()
        published = self.published()
        return {path: published[path]["diagnostics"] for path in paths if path in published}

    def annotations(self, path: str, diagnostics: Iterable[Mapping[str, Any]]) -> list[Annotation]:
        """Diagnostics as annotations, with their whole messages."""
        found = []
        for d in diagnostics:
            start, end = d["range"]["start"], d["range"]["end"]
            found.append(
                Annotation(
                    path,
                    start["line"],
                    self.column(path, start),
                    self.column(path, end) if end["line"] == start["line"] else None,
                    str(d.get("code", "")),
                    d["message"],
                )
            )
        return found


def check_diagnostics(
    root: Path | str,
    fixture: str | None = None,
    *,
    pull: bool = True,
    client: str = "visual-studio-code",
    capabilities: Any = None,
    **options: Any,
) -> CourseClient:
    """Run the server on `fixture` and check that its diagnostics, of every file not
    `closed` (the lessons opened, the course files), are the annotations: each at its
    range, with its code, and a message starting with the annotation's. `pull`: the
    client pulls diagnostics (else the server pushes them); `capabilities`, when given,
    replace `client`'s; `options` are `CourseClient`'s (settings, locale, folders, ...).
    The client is returned for further checks."""
    caps = vscode_capabilities(pull, client) if capabilities is None else capabilities
    course = CourseClient(root, fixture, capabilities=caps, **options)
    assert course.pulls == pull, "the server chose the other diagnostics model"
    fixture_ = course.fixture
    paths = [p for p in fixture_.files if p not in fixture_.closed]
    actual = [
        annotation
        for path, items in course.diagnostics(paths).items()
        for annotation in course.annotations(path, items)
    ]
    compare(fixture_, actual, exact=False, what="server's diagnostics")
    return course


def span(range_: Mapping[str, Any]) -> str:
    """An LSP range as `line:character-line:character` (0-based, as sent)."""
    start, end = range_["start"], range_["end"]
    return f"{start['line']}:{start['character']}-{end['line']}:{end['character']}"


def render_hover(hover: Mapping[str, Any] | None) -> str:
    """A hover as the range it covers, then its whole markdown."""
    if hover is None:
        return "no hover"
    contents = hover["contents"]
    head = f"range {span(hover['range'])}" if "range" in hover else "no range"
    return f"{head} ({contents['kind']})\n---\n{contents['value']}"


def render_completion(result: Mapping[str, Any] | list[Any] | None) -> str:
    """A completion list as the client shows it, in its order (sort text, then label),
    one item a line: label, kind, detail, the edit's range and text (`snippet` when it
    is a snippet, `preselect` when preselected); first whether the list is incomplete."""
    if result is None:
        return "no completion"
    items = result if isinstance(result, list) else result["items"]
    incomplete = False if isinstance(result, list) else result.get("isIncomplete", False)
    lines = [f"incomplete: {str(incomplete).lower()}"]
    for item in sorted(items, key=lambda i: (i.get("sortText") or i["label"], i["label"])):
        kind = CompletionItemKind(item["kind"]).name if "kind" in item else "-"
        snippet = " snippet" if item.get("insertTextFormat") == 2 else ""
        snippet += " preselect" if item.get("preselect") else ""
        edit = item.get("textEdit")
        if edit is None:
            change = f"insert {item.get('insertText', item['label'])!r}"
        else:
            where = edit.get("range") or edit.get("insert")
            change = f"{span(where)} {edit['newText']!r}"
        detail = item.get("detail") or "-"
        lines.append(f"{item['label']} | {kind} | {detail} | {change}{snippet}")
    return "\n".join(lines)


def decode_tokens(
    data: list[int], legend: Mapping[str, list[str]]
) -> list[tuple[int, int, int, str, list[str]]]:
    """Semantic tokens as sent (five integers each, relative positions) decoded: line,
    character, length, type and modifiers by name."""
    decoded = []
    line = char = 0
    for i in range(0, len(data), 5):
        delta_line, delta_char, length, kind, modifiers = data[i : i + 5]
        line += delta_line
        char = char + delta_char if delta_line == 0 else delta_char
        names = [m for bit, m in enumerate(legend["tokenModifiers"]) if modifiers >> bit & 1]
        decoded.append((line, char, length, legend["tokenTypes"][kind], names))
    return decoded


_CODE_UNITS = {"utf-8": ("utf-8", 1), "utf-16": ("utf-16-le", 2), "utf-32": ("utf-32-le", 4)}
"""A position encoding's codec and the bytes of its code unit."""


def _units(text: str, encoding: str) -> int:
    codec, width = _CODE_UNITS[encoding]
    return len(text.encode(codec, errors="surrogatepass")) // width
