"""What the browser playground's Web Worker (`editors/web/src/worker.js`) asks of mfls's
Python beside the language server: the course under `/course` replaced by an AI-Shifu
export or a folder, packed back into its export, the one rule for the path of a lesson
the page names, and the server started (after a warm-up whose modules a snapshot of
Python keeps).

Files are read and written only through `mfls.disk` (`CourseFolder`'s `Disk` and
`TreeWriter`; in memory in the tests). Answers are plain dicts and lists, which Pyodide
turns into JavaScript objects.
"""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Mapping
from typing import Any, Final, Protocol

import mfls
from mfls.disk import REAL_DISK, Disk, DiskProblem
from mfls.disk.trees import scratch_folder, write_file, write_tree
from mfls.exports.ai_shifu import ExportProblem, read_export
from mfls.exports.layout import decode_text, encode_text, unpack
from mfls.exports.packing import pack
from mfls.lsp.stepped_loop import SteppedLoop
from mfls.lsp.sync import SyncServer

ROOT: Final = "/course"
"""Where the worker keeps the course, in Pyodide's in-memory file system."""

LESSONS: Final = "lessons"
"""The folder a lesson named without one goes in."""


MAX_PART_BYTES: Final = 255
"""The longest file or folder name common file systems hold, in UTF-8 bytes."""

_WINDOWS_SEPARATORS: Final = frozenset("\\:")


def path_problem(path: str) -> str | None:
    """Why `path` is not a relative POSIX path of the course, or None when it is. Refused:
    an empty, `.` or `..` part (it could name something outside the course); a backslash
    or a colon (a folder separator or a drive on Windows, where the zip download may be
    unpacked); NUL and other control characters; a part over `MAX_PART_BYTES`."""
    for part in path.split("/"):
        if part in ("", ".", ".."):
            return f"an empty, . or .. part in {path!r}"
        if any(c in _WINDOWS_SEPARATORS for c in part):
            return f"a backslash or colon in {path!r} (a folder or drive on Windows)"
        if any(ord(c) < 0x20 or ord(c) == 0x7F for c in part):
            return f"a control character in {path!r}"
        if len(part.encode("utf-8", "surrogatepass")) > MAX_PART_BYTES:
            return f"a name over {MAX_PART_BYTES} bytes in {path!r}"
    return None


def safe_path(path: str) -> bool:
    """Whether `path` is a relative POSIX path of the course (`path_problem`)."""
    return path_problem(path) is None


def page_path(path: str) -> bool:
    """Whether the page may write `path`: a safe path outside `.mfls/`, mfls's own
    records (a share link or an edit never writes them; an export or folder may)."""
    return safe_path(path) and path.split("/", 1)[0] != ".mfls"


def lesson_path(name: str) -> str | None:
    """The course path of a lesson the author named (adding or renaming a file, or the
    lesson an older share link carries): leading slashes dropped, a bare name put in
    `lessons/`; None when the name is empty, not a path the page may write (`page_path`)."""
    trimmed = name.strip().lstrip("/")
    if not trimmed or not page_path(trimmed):
        return None
    return trimmed if "/" in trimmed else f"{LESSONS}/{trimmed}"


def shown(path: str) -> bool:
    """Whether the page opens `path` in an editor (a lesson or a TOML file, not hidden);
    the page keeps the other files' bytes."""
    return path.endswith((".md", ".toml")) and not any(
        part.startswith(".") for part in path.split("/")
    )


class TreeWriter(Protocol):
    """How the course's files are written: the whole tree at once, or one file."""

    def write_tree(self, root: str, files: Mapping[str, bytes]) -> DiskProblem | None: ...

    def write_file(self, path: str, data: bytes, root: str) -> DiskProblem | None: ...


class RealWriter:
    """The file system, through `mfls.disk.trees` (the tree replaced in one step)."""

    __slots__ = ()

    def write_tree(self, root: str, files: Mapping[str, bytes]) -> DiskProblem | None:
        return write_tree(root, files, replace=True)

    def write_file(self, path: str, data: bytes, root: str) -> DiskProblem | None:
        return write_file(path, data, within=root)


def as_bytes(data: Any) -> bytes:
    """Bytes from what the page sent (a JavaScript Uint8Array, or bytes)."""
    return data.to_bytes() if hasattr(data, "to_bytes") else bytes(data)


class CourseFolder:
    """The course the worker serves: its files under `root`, read through `disk` and
    written through `writer`."""

    __slots__ = ("_disk", "root", "writer")

    def __init__(
        self, root: str = ROOT, disk: Disk = REAL_DISK, writer: TreeWriter | None = None
    ) -> None:
        self.root = root
        self._disk = disk
        self.writer: TreeWriter = writer or RealWriter()

    def files(self) -> list[str]:
        """The course's files (relative POSIX paths, sorted; hidden folders left out)."""
        listing, _problems = self._disk.walk(self.root)
        prefix = self.root.rstrip("/") + "/"
        return sorted(path[len(prefix) :] for path in listing.files if path.startswith(prefix))

    def _full(self, path: str) -> str:
        return f"{self.root.rstrip('/')}/{path}"

    def replace(
        self, files: Mapping[str, Any], title: str | None, shared: bool = False
    ) -> dict[str, Any]:
        """The course replaced by `files` (path -> bytes; a path that leaves the course is
        left out, and, from a `shared` link, one the page does not write: `page_path`):
        the files before and after, the texts the page edits and the bytes it keeps, the
        paths left out, or `refused` when the tree could not be written (the course
        unchanged)."""
        old = self.files()
        rule = page_path if shared else safe_path
        written = {path: as_bytes(data) for path, data in files.items() if rule(path)}
        left_out = sorted(path for path in files if path not in written)
        problem = self.writer.write_tree(self.root, written)
        if problem is not None:
            return {"refused": f"{problem.path}: {problem.reason}"}
        texts: dict[str, str] = {}
        kept: dict[str, bytes] = {}
        for path, data in written.items():
            text = decode_text(data) if shown(path) else None
            if text is not None:
                texts[path] = text
            else:
                kept[path] = data
        return {
            "old": old,
            "new": self.files(),
            "texts": texts,
            "kept": kept,
            "title": title,
            "left_out": left_out,
        }

    def open_export(self, data: Any, name: str) -> dict[str, Any]:
        """The AI-Shifu export `data` (a file called `name`) unpacked as the course, as
        `mfls unpack` does, or `refused` with the reason."""
        source = as_bytes(data)
        export = read_export(source)
        if isinstance(export, ExportProblem):
            return {"refused": f"{name} is not a usable AI-Shifu export: {export.message}"}
        folder = unpack(export, source, name)
        return self.replace(folder.files, str(export.shifu["title"]))

    def _read(self, path: str) -> bytes | ExportProblem:
        data, problems = self._disk.read_bytes(self._full(path), self.root)
        if data is None:
            return ExportProblem(problems[0].reason if problems else f"cannot read {path}")
        return data

    def pack(self, edited: Mapping[str, str]) -> dict[str, Any]:
        """The course packed back into its export, as `mfls pack` does, the `edited`
        texts written first (never outside the course, nor into `.mfls/`): `bytes`, or
        `refused` with the reason."""
        for path, text in edited.items():
            if not page_path(path):
                continue
            problem = self.writer.write_file(self._full(path), encode_text(text), self.root)
            if problem is not None:
                return {"refused": f"{path}: {problem.reason}"}
        packed = pack(self._read)
        if isinstance(packed, ExportProblem):
            return {"refused": packed.message}
        return {"bytes": packed}


def version() -> str:
    """What the page shows once mfls is up."""
    return f"mfls {mfls.__version__}, Python {sys.version.split()[0]}"


def serve() -> SyncServer:
    """The language server the page talks to, on a loop whose clock the worker moves."""
    return SyncServer(loop=SteppedLoop())


_WARM_UP_TOML: Final = 'host = "ai-shifu"\nlessons = ["lessons/*.md"]\n'
_WARM_UP_LESSON: Final = (
    "?[%{{topic}} A | B]\n\n?[{{ Which one? }} A | B]\n\nUse {{ topc }} and {{Where?}}.\n"
)

PAGE_CAPABILITIES: Final[dict[str, Any]] = {
    "general": {"markdown": {"parser": "marked"}},
    "textDocument": {
        "completion": {
            "completionItem": {
                "snippetSupport": True,
                "documentationFormat": ["markdown", "plaintext"],
                "insertReplaceSupport": False,
            },
            "completionList": {
                "itemDefaults": ["commitCharacters", "editRange", "insertTextFormat"]
            },
            "completionItemKind": {"valueSet": []},
            "contextSupport": True,
        },
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "formatting": {},
        "rename": {},
        "signatureHelp": {
            "contextSupport": True,
            "signatureInformation": {
                "documentationFormat": ["markdown", "plaintext"],
                "parameterInformation": {"labelOffsetSupport": True},
                "activeParameterSupport": True,
            },
        },
        "definition": {},
        "declaration": {},
        "implementation": {},
        "typeDefinition": {},
        "references": {},
        "publishDiagnostics": {"versionSupport": True},
        "codeAction": {
            "codeActionLiteralSupport": {
                "codeActionKind": {"valueSet": ["quickfix", "refactor", "source"]}
            }
        },
        "semanticTokens": {
            "requests": {"full": True},
            "tokenTypes": [],
            "tokenModifiers": [],
            "formats": ["relative"],
        },
    },
    "window": {"showMessage": {}},
}
"""The client capabilities the playground's page sends (@codemirror/lsp-client 6.3.0 with
the page's extensions): the warm-up sends them too, so that the converters lsprotocol
builds for them on first use (a few hundred milliseconds in the browser) are built before
the snapshot."""


def _message(**fields: Any) -> str:
    return json.dumps({"jsonrpc": "2.0", **fields})


def _published(sent: list[str]) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for text in sent:
        message = json.loads(text)
        if message.get("method") == "textDocument/publishDiagnostics":
            found[message["params"]["uri"]] = message["params"]["diagnostics"]
    return found


def warm_up(writer: TreeWriter | None = None) -> None:
    """A server run once over a small course of its own (in a fresh temporary folder,
    removed after), asked what the page asks on its way to the first problems, then
    dropped: the modules and converters a server's first answers need are made, and
    nothing of any author's course exists yet. The worker snapshots Python right after
    this."""
    with scratch_folder("mfls-warm-up-") as root:
        _warm_up_in(root, writer)
    gc.collect()


def _warm_up_in(root: str, writer: TreeWriter | None) -> None:
    files = {"mfcourse.toml": _WARM_UP_TOML.encode(), "lessons/a.md": _WARM_UP_LESSON.encode()}
    problem = (writer or RealWriter()).write_tree(root, files)
    if problem is not None:
        raise OSError(f"{problem.path}: {problem.reason}")
    root_uri = f"file://{root}"
    uris = {name: f"{root_uri}/{name}" for name in files}
    server = serve()
    params = {
        "processId": None,
        "clientInfo": {"name": "@codemirror/lsp-client"},
        "rootUri": root_uri,
        "rootPath": root,
        "workspaceFolders": [{"uri": root_uri, "name": "course"}],
        "initializationOptions": {"mfls": {"diagnosticDelay": 10}},
        "capabilities": PAGE_CAPABILITIES,
        "locale": "en",
    }
    server.handle(_message(id=1, method="initialize", params=params))
    server.handle(_message(method="initialized", params={}))
    sent: list[str] = []
    for name, uri in uris.items():
        language = "markdown" if name.endswith(".md") else "toml"
        text = files[name].decode()
        document = {"uri": uri, "languageId": language, "version": 0, "text": text}
        sent += server.handle(
            _message(method="textDocument/didOpen", params={"textDocument": document})
        )
    server.handle(
        _message(
            id=2,
            method="workspace/executeCommand",
            params={"command": "mfls.courseMap", "arguments": [uris["lessons/a.md"]]},
        )
    )
    for number, uri in enumerate(uris.values(), start=3):
        tokens = {"textDocument": {"uri": uri}}
        sent += server.handle(
            _message(id=number, method="textDocument/semanticTokens/full", params=tokens)
        )
    sent += server.advance(1.0)
    number = 10
    for uri, diagnostics in _published(sent).items():
        for diagnostic in diagnostics:
            number += 1
            context = {"diagnostics": [diagnostic], "only": ["quickfix"]}
            asked = {"textDocument": {"uri": uri}, "range": diagnostic["range"], "context": context}
            server.handle(_message(id=number, method="textDocument/codeAction", params=asked))
    server.advance(1.0)
    del server
    # The first server after this one still made eleven of the capabilities' converters
    # anew (measured: none for any later one); a second `initialize` makes them here.
    serve().handle(_message(id=1, method="initialize", params=params))
