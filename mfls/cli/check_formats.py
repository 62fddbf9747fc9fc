"""`mfls check` output for CI: GitHub workflow annotations and SARIF 2.1.0.

Both take the findings of `mfls.cli.check` (1-based lines, code point columns, end
column exclusive). A finding inside an AI-Shifu export is placed in a lesson's text, not
in the JSON file's lines: it is reported on the export file without a line, its lesson
and place leading the message.
"""

from __future__ import annotations

import os
import urllib.parse
from collections.abc import Sequence
from typing import Any, Final, Protocol

from mfls import __version__
from mfls.cli.output import decoded
from mfls.workspace.diagnostic_registry import BY_CODE, DEFAULT_SEVERITIES


class Finding(Protocol):
    """What these formats read of `mfls.cli.check.Finding`."""

    @property
    def path(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def end_column(self) -> int: ...
    @property
    def severity(self) -> str: ...
    @property
    def code(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def lesson(self) -> str | None: ...
    @property
    def part(self) -> str | None: ...


class CheckReport(Protocol):
    """What these formats read of `mfls.cli.check.CheckReport`."""

    @property
    def findings(self) -> Sequence[Finding]: ...
    @property
    def unreadable(self) -> Sequence[str]: ...
    @property
    def suppressed(self) -> Sequence[Finding]: ...


_GITHUB_COMMANDS: Final = {"error": "error", "warning": "warning"}  # else: notice
_SARIF_LEVELS: Final = {"error": "error", "warning": "warning"}  # else: note
SARIF_SCHEMA: Final = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)


def _github_data(text: str) -> str:
    """A workflow command's message: `%`, CR and LF escaped."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _github_property(text: str) -> str:
    """A workflow command's property value: as a message, and `:` and `,` too."""
    return _github_data(text).replace(":", "%3A").replace(",", "%2C")


def _lesson_place(finding: Finding) -> str:
    """Where in an export a finding lies: `lesson title [field]:line:column`."""
    title = " ".join((finding.lesson or "").split())
    part = "" if finding.part == "content" else f" [{finding.part}]"
    return f"{title}{part}:{finding.line}:{finding.column}"


def _message(finding: Finding) -> str:
    message = decoded(finding.message)
    if finding.lesson is not None:
        return f"{decoded(_lesson_place(finding))}: {message}"
    return message


def github_line(finding: Finding) -> str:
    """`::error file=..,line=..,col=..,endLine=..,endColumn=..,title=code::message`."""
    command = _GITHUB_COMMANDS.get(finding.severity, "notice")
    props = [f"file={_github_property(decoded(finding.path))}"]
    if finding.lesson is None:
        props += [
            f"line={finding.line}",
            f"col={finding.column}",
            f"endLine={finding.end_line}",
            f"endColumn={finding.end_column}",
        ]
    props.append(f"title={_github_property(finding.code)}")
    return f"::{command} {','.join(props)}::{_github_data(_message(finding))}"


def report_github(report: CheckReport) -> str:
    lines = [github_line(f) for f in report.findings]
    lines += [f"::error title=mfls check::{_github_data(decoded(p))}" for p in report.unreadable]
    return "".join(line + "\n" for line in lines)


def artifact_uri(path: str) -> str:
    """A path as a SARIF artifact URI: relative (to the working directory, `%SRCROOT%`)
    when it lies below it, else an absolute `file:` URI; bytes percent-encoded."""
    raw = os.fsencode(os.path.normpath(path)).replace(os.sep.encode(), b"/")
    quoted = urllib.parse.quote(raw, safe="/")
    if not os.path.isabs(path):
        return quoted
    return "file://" + (quoted if quoted.startswith("/") else "/" + quoted)


def _sarif_result(finding: Finding, rule_index: int, suppressed: bool = False) -> dict[str, Any]:
    uri = artifact_uri(finding.path)
    artifact: dict[str, Any] = {"uri": uri}
    if not uri.startswith("file:"):
        artifact["uriBaseId"] = "SRCROOT"
    physical: dict[str, Any] = {"artifactLocation": artifact}
    location: dict[str, Any] = {"physicalLocation": physical}
    if finding.lesson is None:
        physical["region"] = {
            "startLine": finding.line,
            "startColumn": finding.column,
            "endLine": finding.end_line,
            "endColumn": finding.end_column,
        }
    else:
        location["logicalLocations"] = [
            {"name": decoded(" ".join(finding.lesson.split())), "kind": "module"}
        ]
    result = {
        "ruleId": finding.code,
        "ruleIndex": rule_index,
        "level": _SARIF_LEVELS.get(finding.severity, "note"),
        "message": {"text": _message(finding)},
        "locations": [location],
    }
    if suppressed:  # SARIF 2.1.0 §3.27.23, §3.35: silenced by a comment in the source
        result["suppressions"] = [{"kind": "inSource"}]
    return result


def _rules(codes: Sequence[str]) -> list[dict[str, Any]]:
    rules = []
    for code in codes:
        info = BY_CODE.get(code)
        default = "warning" if info is None else info.severity
        rules.append(
            {
                "id": code,
                "name": "".join(part.capitalize() for part in code.split("-")),
                "shortDescription": {"text": code if info is None else info.summary},
                "defaultConfiguration": {"level": _SARIF_LEVELS.get(default, "note")},
            }
        )
    return rules


def report_sarif(report: CheckReport, cwd: str | None = None) -> str:
    """One SARIF 2.1.0 log with one run: every diagnostic code as a rule, the findings as
    results (those a suppression comment silences with an in-source suppression),
    unreadable paths as tool execution notifications."""
    import json  # loaded only for this format: a text check never needs it

    codes = list(DEFAULT_SEVERITIES)
    codes += sorted({f.code for f in [*report.findings, *report.suppressed]} - set(codes))
    index = {code: i for i, code in enumerate(codes)}
    root = os.path.join(cwd if cwd is not None else os.getcwd(), "")
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "mfls",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": _rules(codes),
            }
        },
        "originalUriBaseIds": {"SRCROOT": {"uri": artifact_uri(root).rstrip("/") + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": [
            *(_sarif_result(f, index[f.code]) for f in report.findings),
            *(_sarif_result(f, index[f.code], True) for f in report.suppressed),
        ],
        "invocations": [
            {
                "executionSuccessful": not report.unreadable,
                "toolExecutionNotifications": [
                    {"level": "error", "message": {"text": decoded(problem)}}
                    for problem in report.unreadable
                ],
            }
        ],
    }
    log = {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}
    return json.dumps(log, ensure_ascii=False, indent=2) + "\n"
