"""The `mfls` command line.

Each subcommand is one `Subcommand` entry in `SUBCOMMANDS`: a name, a help line, a
function adding its arguments and a function running it (returning the exit status).
A new subcommand is one more entry.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from mfls import __version__
from mfls.cli_rename import RENAME_HELP, configure_rename, run_rename
from mfls.features.diagnostics import Diagnostic, course_file_diagnostics, document_diagnostics
from mfls.lsp.filetypes import MARKDOWN_SUFFIXES
from mfls.lsp.positions import Encoding, LineIndex
from mfls.syntax.model import ScanResult
from mfls.workspace.config import COURSE_FILE
from mfls.workspace.files import walk
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace


@dataclass(frozen=True)
class Subcommand:
    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


# ----- mfls scan -------------------------------------------------------------------


def decode_source(data: bytes) -> str:
    """UTF-8 as given: invalid bytes become U+FFFD, a BOM stays text, line ends stay."""
    return data.decode("utf-8", errors="replace")


def _read_bytes(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def _write_text(out: BinaryIO, text: str) -> None:
    out.write(text.encode("utf-8", errors="surrogatepass"))
    out.flush()


def _configure_scan(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="a Markdown file, or - for standard input")
    parser.add_argument(
        "--json", action="store_true", help="print the scan contract as one JSON object"
    )


def _run_scan(args: argparse.Namespace) -> int:
    from mfls.syntax.scanner import scan

    try:
        data = _read_bytes(args.path)
    except OSError as error:
        print(f"mfls scan: cannot read {args.path}: {error.strerror or error}", file=sys.stderr)
        return 2
    text = decode_source(data)
    result = scan(text)
    if args.json:
        _write_text(sys.stdout.buffer, json.dumps(result.to_json(), ensure_ascii=False) + "\n")
    else:
        _write_text(sys.stdout.buffer, scan_listing(text, result))
    return 0


def _place(index: LineIndex, offset: int) -> str:
    line, column = index.position(offset, Encoding.UTF32)
    return f"{line + 1}:{column + 1}"


def _span(index: LineIndex, start: int, end: int) -> str:
    return f"{_place(index, start)}-{_place(index, end)}"


def scan_listing(text: str, result: ScanResult) -> str:
    """A readable listing of a scan: 1-based line:column spans in code points."""
    index = LineIndex(text)
    lines: list[str] = []
    lines.append(f"markers: {len(result.markers)}")
    for marker in result.markers:
        notes = [marker.role.value]
        if marker.legacy:
            notes.append("legacy")
        if marker.literal:
            notes.append("literal")
        key = json.dumps(marker.key, ensure_ascii=False)
        lines.append(f"  {_span(index, marker.start, marker.end)}  {key}  ({', '.join(notes)})")
    lines.append(f"invalid: {len(result.invalid)}")
    for invalid in result.invalid:
        lines.append(f"  {_span(index, invalid.start, invalid.end)}  {invalid.reason.value}")
    lines.append(f"interactions: {len(result.interactions)}")
    for interaction in result.interactions:
        binding = (
            "no binding"
            if interaction.binding is None
            else f"binds {json.dumps(interaction.binding, ensure_ascii=False)}"
        )
        mode = "multiple choice" if interaction.multiple else "single choice"
        lines.append(f"  {_span(index, interaction.start, interaction.end)}  {binding}, {mode}")
        for choice in interaction.choices:
            label = json.dumps(choice.label, ensure_ascii=False)
            value = json.dumps(choice.value, ensure_ascii=False)
            lines.append(
                f"    choice {label}" + ("" if choice.value == choice.label else f" -> {value}")
            )
        if interaction.input is not None:
            lines.append(f"    input {json.dumps(interaction.input, ensure_ascii=False)}")
    return "\n".join(lines) + "\n"


# ----- mfls check ------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """One diagnostic, placed for a terminal: 1-based lines and code point columns."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    severity: str
    code: str
    message: str

    def as_text(self) -> str:
        message = " ".join(self.message.split())
        return f"{self.path}:{self.line}:{self.column}: {self.severity} {self.code} {message}"

    def as_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "endLine": self.end_line,
            "endColumn": self.end_column,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }


@dataclass
class CheckReport:
    findings: list[Finding] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    checked: int = 0

    @property
    def has_errors(self) -> bool:
        return any(f.severity == "error" for f in self.findings)


def _nearest_course_root(path: str) -> str | None:
    directory = path if os.path.isdir(path) else os.path.dirname(path)
    while True:
        if os.path.isfile(os.path.join(directory, COURSE_FILE)):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent


def _markdown_files(folder: str) -> list[str]:
    return [p for p in walk(folder).files if p.lower().endswith(MARKDOWN_SUFFIXES)]


def _display(path: str, given: dict[str, str]) -> str:
    return given.get(path) or os.path.relpath(path)


def check_paths(paths: Sequence[str]) -> CheckReport:
    """Course diagnostics for files and folders, exactly as the editor computes them.

    Folders count as workspace folders (each course file inside starts a course); a
    course file above a path makes its whole course part of the check. A file outside
    every course is a course of its own, as when the editor opens it alone.
    """
    report = CheckReport()
    folders: list[str] = []
    targets: list[str] = []
    given: dict[str, str] = {}
    for raw in paths:
        path = os.path.abspath(raw)
        if os.path.isdir(path):
            if not os.access(path, os.R_OK | os.X_OK):
                report.unreadable.append(f"cannot read {raw}: permission denied")
                continue
            root = _nearest_course_root(path)
            folders.append(root if root is not None else path)
            found = _markdown_files(path)
            for file in found:
                given.setdefault(
                    file, os.path.normpath(os.path.join(raw, os.path.relpath(file, path)))
                )
            targets.extend(found)
        elif os.path.isfile(path):
            root = _nearest_course_root(path)
            if root is not None:
                folders.append(root)
            given.setdefault(path, raw)
            targets.append(path)
        else:
            reason = "no such file or folder" if not os.path.lexists(path) else "not a file"
            report.unreadable.append(f"cannot read {raw}: {reason}")
    targets = list(dict.fromkeys(targets))
    workspace = Workspace()
    workspace.set_folders(folders)
    workspace.index_all()
    for path in targets:
        uri = path_to_uri(path)
        if workspace.snapshot.entry(uri) is None:
            try:
                with open(path, "rb") as handle:
                    text = decode_source(handle.read())
            except OSError as error:
                report.unreadable.append(
                    f"cannot read {given.get(path, path)}: {error.strerror or error}"
                )
                continue
            workspace.open(uri, text, None)
    snapshot = workspace.snapshot
    courses: dict[str, str] = {}
    for path in targets:
        found = snapshot.entry(path_to_uri(path))
        if found is None:
            continue
        course, entry = found
        report.checked += 1
        items = document_diagnostics(snapshot, entry.uri)
        _add_findings(report, _display(path, given), entry.text, items)
        if course.config_path is not None:
            courses[course.id] = course.config_path
    for course_id, course_file in sorted(courses.items(), key=lambda pair: pair[1]):
        items = course_file_diagnostics(snapshot, course_id)
        if items:
            try:
                with open(course_file, "rb") as handle:
                    text = decode_source(handle.read())
            except OSError:
                text = ""
            _add_findings(report, _display(course_file, given), text, items)
    return report


def _add_findings(report: CheckReport, shown: str, text: str, items: Sequence[Diagnostic]) -> None:
    index = LineIndex(text)
    placed = []
    for item in items:
        line, column = index.position(item.start, Encoding.UTF32)
        end_line, end_column = index.position(item.end, Encoding.UTF32)
        placed.append(
            Finding(
                shown,
                line + 1,
                column + 1,
                end_line + 1,
                end_column + 1,
                item.severity,
                item.code,
                item.message,
            )
        )
    placed.sort(key=lambda f: (f.line, f.column, f.code))
    report.findings.extend(placed)


def report_text(report: CheckReport) -> str:
    lines = [finding.as_text() for finding in report.findings]
    return "".join(line + "\n" for line in lines)


def report_json(report: CheckReport) -> str:
    payload = {
        "diagnostics": [finding.as_json() for finding in report.findings],
        "unreadable": list(report.unreadable),
        "checked": report.checked,
    }
    return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"


def _configure_check(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or folders to check")
    parser.add_argument(
        "--format", choices=("text", "json"), default="text", help="output format (text)"
    )


def _run_check(args: argparse.Namespace) -> int:
    import logging

    from mfls.lsp.logs import configure_stderr

    configure_stderr(logging.WARNING)
    report = check_paths(args.paths)
    for problem in report.unreadable:
        print(f"mfls check: {problem}", file=sys.stderr)
    if args.format == "json":
        _write_text(sys.stdout.buffer, report_json(report))
    else:
        _write_text(sys.stdout.buffer, report_text(report))
    if report.unreadable:
        return 2
    return 1 if report.has_errors else 0


# ----- mfls serve ------------------------------------------------------------------


def parse_host_port(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {value!r}")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    number = int(port)
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"port out of range: {number}")
    return host, number


def _configure_serve(parser: argparse.ArgumentParser) -> None:
    transport = parser.add_mutually_exclusive_group()
    transport.add_argument(
        "--tcp",
        type=parse_host_port,
        metavar="HOST:PORT",
        help="serve over TCP instead of standard input and output",
    )
    transport.add_argument(
        "--stdio",
        action="store_true",
        help="serve over standard input and output (the default; accepted for LSP clients)",
    )


def _run_serve(args: argparse.Namespace) -> int:
    import logging

    from mfls.lsp.logs import configure_stderr
    from mfls.lsp.routes import create_server

    configure_stderr(logging.WARNING)
    server = create_server()
    tcp: tuple[str, int] | None = getattr(args, "tcp", None)
    if tcp is not None:
        server.start_tcp(*tcp)
        return 0
    protocol_out = sys.stdout.buffer
    # The protocol owns stdout: anything printed by mistake goes to stderr instead.
    sys.stdout = sys.stderr
    server.start_io(sys.stdin.buffer, protocol_out)
    return 0


SUBCOMMANDS: tuple[Subcommand, ...] = (
    Subcommand("serve", "speak LSP over stdio (the default) or TCP", _configure_serve, _run_serve),
    Subcommand("scan", "print what the scanner reads in one document", _configure_scan, _run_scan),
    Subcommand("check", "report diagnostics for files and folders", _configure_check, _run_check),
    Subcommand("rename", RENAME_HELP, configure_rename, run_rename),
)


def build_parser(subcommands: Sequence[Subcommand] = SUBCOMMANDS) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mfls",
        description="MarkdownFlow language server and checker. "
        "Without a command it serves LSP over stdio.",
    )
    parser.add_argument("--version", action="version", version=f"mfls {__version__}")
    parser.add_argument(
        "--stdio",
        action="store_true",
        dest="default_stdio",
        help="serve LSP over standard input and output (what no command does anyway)",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for sub in subcommands:
        sub_parser = commands.add_parser(sub.name, help=sub.help, description=sub.help)
        sub.configure(sub_parser)
        sub_parser.set_defaults(run=sub.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args: Any = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = getattr(args, "run", _run_serve)
    if args.default_stdio and run is not _run_serve:
        parser.error(f"--stdio applies to serving LSP, not to the {args.command} command")
    try:
        return run(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
