"""Courses written as one text, and a client that runs the server on them in process.

A fixture holds every file of a course, each after a header line `//- PATH` (a fixture
without a header is one lesson, `01.md`)::

    //- mfcourse.toml
    name = "Demo"
    lessons = ["01.md"]
    //- 01.md
    ?[{{ topic }} Python | JavaScript]

    Use {{ to$0pic }} and {{ topc }}.
    %%                    ^^^^^^^^^^ near-miss: Not bound in this course

- `$0` is the cursor (at most one in a fixture); it is taken out of the text.
- A line whose first non-blank characters are `%%` followed by carets, or carets
  followed by `%%`, is an annotation: an expected diagnostic on the nearest text line
  above it, and never part of the text the server sees. `%%` starts no marker,
  interaction or Markdown construct, so no course line is read as an annotation by
  accident; a caret is a column (in code points, of the line as written, `$0` included)
  of that text line. After the carets: the diagnostic's code, optionally `: ` and the
  start of its message::

      Use {{ topc }} here.
      %%  ^^^^^^^^^^ near-miss
      {{ x }} at the start of a line
      ^^^^^^^ %% unbound-reference: No lesson asks “x”

  `^^^^+` means the range goes on past the end of this line (its end is not compared);
  a lone `|` is an empty range at its column.
- `//- PATH closed`: the file is written to the course folder but not opened. A PATH
  may hold folders (`//- lessons/01.md`); `CourseClient(..., folders=["a", "b"])`
  makes those the workspace folders (the course folder itself by default).

`CourseClient` writes the files in a folder `course` (its name is the course's when the
course file gives none) under a directory (pytest's `tmp_path`), starts a `SyncServer`
(on the `SteppedLoop` the playground's worker gives it under Pyodide or with
`MFLS_TEST_LOOP=stepped`, else on CPython's own loop) with a real client's captured
capabilities, initializes it with that folder, answers what the server asks, and opens
every `.md` file that is not `closed`. It speaks only JSON-RPC, as an editor does.
`check_diagnostics` compares the server's diagnostics with the annotations and fails
with both rendered as annotated text.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from lsprotocol.converters import get_converter
from pytest_lsp import client_capabilities

from mfls.lsp.stepped_loop import SteppedLoop
from mfls.lsp.sync import SyncServer
from mfls.workspace.uris import path_to_uri

HEADER = "//- "
CURSOR = "$0"
DEFAULT_FILE = "01.md"
_ANNOTATION = re.compile(
    r"^[ ]*(?:%%[ ]*(?P<a>\^+\+?|\|)|(?P<b>\^+\+?|\|)[ ]*%%)(?:[ ]+(?P<rest>.*))?$"
)
# Long enough for any debounce or refresh the server sets; how far `settle` lets time run.
SETTLE_SECONDS = 2.0


@dataclass(frozen=True, order=True)
class Annotation:
    """A diagnostic: `line` and columns in code points of the text the server sees;
    `end` None: the range ends on a later line. `message`: the start of its message."""

    path: str
    line: int
    start: int
    end: int | None
    code: str
    message: str = ""

    def render(self, line_length: int = 0) -> str:
        """The annotation line; an open range's carets run to `line_length`."""
        width = line_length - self.start if self.end is None else self.end - self.start
        marks = "|" if width == 0 and self.end is not None else "^" * max(width, 1)
        if self.end is None:
            marks += "+"
        text = f"{self.code}: {self.message}" if self.message else self.code
        if self.start >= 2:
            return "%%" + " " * (self.start - 2) + marks + " " + text
        return " " * self.start + marks + " %% " + text


@dataclass(frozen=True)
class Cursor:
    """Where `$0` was, in the text the server sees."""

    path: str
    line: int
    column: int  # code points


@dataclass
class Fixture:
    """A parsed fixture; `closed`: the files not opened."""

    files: dict[str, str]  # as the server sees them: no cursor, no annotation
    annotations: list[Annotation] = field(default_factory=list)
    cursor: Cursor | None = None
    closed: set[str] = field(default_factory=set)


def parse(fixture: str) -> Fixture:
    """Read a fixture (see the module docstring); its common indentation is removed."""
    text = dedent(fixture).lstrip("\n")
    if not text.startswith(HEADER):
        text = f"{HEADER}{DEFAULT_FILE}\n{text}"
    parsed = Fixture(files={})
    sections = re.split(r"(?m)^//- (.*)\n", text)[1:]
    for header, body in zip(sections[0::2], sections[1::2], strict=True):
        path, *options = header.split()
        if path in parsed.files:
            raise ValueError(f"{path} appears twice in the fixture")
        if any(option != "closed" for option in options):
            raise ValueError(f"unknown option in {header!r}: only `closed` is known")
        if options:
            parsed.closed.add(path)
        parsed.files[path] = _parse_file(path, body, parsed)
    return parsed


def dedent(text: str) -> str:
    """The text without the indentation (spaces and tabs) its non-blank lines share,
    every line ending kept: `textwrap.dedent` of Python 3.14 writes a blank CRLF line
    as a bare LF (3.11's kept it)."""
    lines = text.split("\n")
    indents = [line[: len(line) - len(line.lstrip(" \t"))] for line in lines if line.strip()]
    margin = min(indents, default="")
    while not all(indent.startswith(margin) for indent in indents):
        margin = margin[:-1]
    return "\n".join(line[len(margin) :] if line.strip() else line.lstrip(" \t") for line in lines)


def _parse_file(path: str, body: str, into: Fixture) -> str:
    lines: list[str] = []  # text lines as written (with the cursor)
    kept = lines_of(body, keepends=True)
    for number, line in enumerate(kept):
        found = _ANNOTATION.match(line.rstrip("\r\n"))
        if found is None:
            lines.append(line)
            continue
        if not lines:
            raise ValueError(f"{path}, line {number + 1}: an annotation above every text line")
        into.annotations.append(_annotation(path, len(lines) - 1, lines[-1], found))
    text = "".join(lines)
    at = text.find(CURSOR)
    if at >= 0:
        if into.cursor is not None or CURSOR in text[at + len(CURSOR) :]:
            raise ValueError(f"more than one cursor {CURSOR!r} in the fixture")
        line = text.count("\n", 0, at)
        into.cursor = Cursor(path, line, at - (text.rfind("\n", 0, at) + 1))
        text = text[:at] + text[at + len(CURSOR) :]
        into.annotations[:] = [_without_cursor(a, into.cursor) for a in into.annotations]
    return text


def _annotation(path: str, line: int, text_line: str, found: re.Match[str]) -> Annotation:
    marks = found.group("a") or found.group("b")
    start = found.start("a") if found.group("a") else found.start("b")
    code, _, message = (found.group("rest") or "").partition(": ")
    if not code:
        raise ValueError(f"{path}: an annotation without a code under {text_line!r}")
    content = text_line.rstrip("\r\n")
    width = 0 if marks == "|" else len(marks.rstrip("+"))
    end = None if marks.endswith("+") else start + width
    if start + (0 if end is None else width) > len(content):
        raise ValueError(f"{path}: the annotation {code!r} runs past its line {content!r}")
    return Annotation(path, line, start, end, code.strip(), message.strip())


def _without_cursor(annotation: Annotation, cursor: Cursor) -> Annotation:
    """Columns of the text as written, moved to the text without the cursor (a caret
    under `$0` itself stands at the cursor)."""
    if annotation.path != cursor.path or annotation.line != cursor.line:
        return annotation

    def moved(column: int) -> int:
        return (
            column - len(CURSOR)
            if column >= cursor.column + len(CURSOR)
            else min(column, cursor.column)
        )

    end = None if annotation.end is None else moved(annotation.end)
    return replace(annotation, start=moved(annotation.start), end=end)


def _with_cursor(annotation: Annotation, cursor: Cursor | None) -> Annotation:
    """The inverse of `_without_cursor`: columns of the text as written."""
    if cursor is None or (annotation.path, annotation.line) != (cursor.path, cursor.line):
        return annotation
    start = annotation.start + (len(CURSOR) if annotation.start >= cursor.column else 0)
    end = annotation.end
    if end is not None and (end > cursor.column or end == annotation.start):
        end += len(CURSOR)
    return replace(annotation, start=start, end=end)


def render(
    files: Mapping[str, str],
    annotations: Iterable[Annotation],
    paths: Iterable[str] = (),
    cursor: Cursor | None = None,
) -> str:
    """The files with `annotations` under their lines, each after its header, as a
    fixture writes them (with the cursor, when given): the files some annotation is on,
    and `paths`."""
    by_file: dict[str, list[Annotation]] = {path: [] for path in paths}
    for annotation in sorted(annotations):
        by_file.setdefault(annotation.path, []).append(_with_cursor(annotation, cursor))
    out: list[str] = []
    for path in sorted(by_file):
        out.append(HEADER + path)
        marks = by_file[path]
        lines = lines_of(files.get(path, "")) or [""]
        for number, line in enumerate(lines):
            if cursor is not None and (path, number) == (cursor.path, cursor.line):
                line = line[: cursor.column] + CURSOR + line[cursor.column :]
            out.append(line)
            out += [a.render(len(line)) for a in marks if a.line == number]
        out += [a.render() for a in marks if a.line >= len(lines)]
    return "\n".join(out) + "\n"


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
    """The server in process on a fixture's course (see the module docstring)."""

    def __init__(
        self,
        root: Path,
        fixture: str | Fixture,
        *,
        capabilities: Any = None,
        settings: Mapping[str, Any] | None = None,
        initialization_options: Any = None,
        locale: str | None = None,
        folder: str = "course",
        folders: Iterable[str] = ("",),
    ) -> None:
        self.fixture = parse(fixture) if isinstance(fixture, str) else fixture
        self.root = root / folder
        self.settings = dict(settings or {})
        self.server = SyncServer(loop=SteppedLoop() if stepped_loop() else None)
        self.buffers: dict[str, str] = {}  # texts opened other than the fixture's
        self.received: list[dict[str, Any]] = []
        self._id = 0
        for path, text in self.fixture.files.items():
            target = self.root / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text.encode("utf-8"))
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
    root: Path,
    fixture: str,
    *,
    pull: bool = True,
    client: str = "visual-studio-code",
    capabilities: Any = None,
    settings: Mapping[str, Any] | None = None,
    initialization_options: Any = None,
    locale: str | None = None,
    folders: Iterable[str] = ("",),
) -> CourseClient:
    """Run the server on `fixture` and check that its diagnostics, of every file not
    `closed` (the lessons opened, the course files), are the annotations: each at its
    range, with its code, and a message starting with the annotation's. `pull`: the
    client pulls diagnostics (else the server pushes them); `capabilities`, when given,
    replace `client`'s. The client is returned for further checks."""
    caps = vscode_capabilities(pull, client) if capabilities is None else capabilities
    course = CourseClient(
        root,
        fixture,
        capabilities=caps,
        settings=settings,
        initialization_options=initialization_options,
        locale=locale,
        folders=folders,
    )
    assert course.pulls == pull, "the server chose the other diagnostics model"
    fixture_ = course.fixture
    paths = [p for p in fixture_.files if p not in fixture_.closed]
    actual = [
        annotation
        for path, items in course.diagnostics(paths).items()
        for annotation in course.annotations(path, items)
    ]
    expected = fixture_.annotations
    shown = [_as_expected(a, expected) for a in actual]
    if sorted(shown) != sorted(expected):
        both = {a.path for a in [*expected, *shown]}
        files, cursor = fixture_.files, fixture_.cursor
        want, got = render(files, expected, both, cursor), render(files, shown, both, cursor)
        diff = difflib.unified_diff(
            want.splitlines(), got.splitlines(), "annotations", "server", lineterm=""
        )
        raise AssertionError(
            "the server's diagnostics are not the annotations:\n"
            + "\n".join(diff)
            + "\n\nThe server's diagnostics, as annotations:\n"
            + render(files, actual, (), cursor)
        )
    return course


def _as_expected(actual: Annotation, expected: list[Annotation]) -> Annotation:
    """`actual` with its message cut to the expected annotation's it matches, so that
    only what the annotations say is compared."""
    for want in expected:
        same = (want.path, want.line, want.start, want.code) == (
            actual.path,
            actual.line,
            actual.start,
            actual.code,
        )
        if same and want.end == actual.end and actual.message.startswith(want.message):
            return want
    return actual


def lines_of(text: str, keepends: bool = False) -> list[str]:
    """The lines of `text`, ended by LF, CRLF or CR (as LSP and mfls end them)."""
    parts = re.split(r"(\r\n|\r|\n)", text)
    lines = [a + b for a, b in zip(parts[0::2], [*parts[1::2], ""], strict=True)]
    if lines and lines[-1] == "":
        lines.pop()
    return lines if keepends else [line.rstrip("\r\n") for line in lines]


def _units(text: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-32":
        return len(text)
    return len(text.encode("utf-16-le")) // 2
