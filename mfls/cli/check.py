"""`mfls check [--format text|json|github|sarif] PATH...`: course diagnostics, as the
editor shows them.

Text output is one `path:line:column: severity code message` line per diagnostic
(1-based lines, code point columns). A `.json` path is an AI-Shifu course export, checked
as the course `mfls unpack` would make of it, in memory: each location is
`EXPORT.json#<lesson title>:line:column`, inside that lesson's `content` (a prompt's
location adds ` [llm_system_prompt]` to the title); `--format json` adds `lesson`,
`outlineItemBid` and `field`; its strings carry an undecodable byte of a path as `\\xNN`.
`github` writes GitHub workflow annotations, `sarif` one SARIF 2.1.0 log
(`mfls.cli.check_formats`). Messages are in the language of `--locale`, else of the
environment (`LC_ALL`, `LC_MESSAGES`, `LANG`: a Chinese locale gives Simplified
Chinese). Exit status: 0 no errors, 1 errors found, 2 a path could not be read (the
others are still checked): a file, an export that cannot be used, a lesson of an export
over the size limit of a file; or a course is over a limit of mfls (documents, a file's
bytes: its check is incomplete).
"""

from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Callable, Sequence

from mfls.cli.check_documents import Checked, Found, documents_findings
from mfls.cli.check_finding import Finding, placed
from mfls.cli.check_formats import report_github, report_sarif
from mfls.cli.check_text import Written, text_pieces, write_text
from mfls.cli.language import add_option as add_locale_option
from mfls.cli.language import chosen as chosen_language
from mfls.cli.output import configure_stderr, decoded, say, write_stdout
from mfls.cli.sources import (
    Unusable,
    classify,
    markdown_files,
    read_source,
    warn_pending_renames,
)
from mfls.features.diagnostics import (
    Diagnostic,
    config_problem_message,
    course_file_diagnostics,
    structure_file_diagnostics,
)
from mfls.features.messages import EN
from mfls.workspace.course_creator import STRUCTURE
from mfls.workspace.course_root import nearest_course_root
from mfls.workspace.index import WorkspaceSnapshot
from mfls.workspace.twins import twinned
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace


class CheckReport:
    """What a check found: the findings, the paths it could not read, how many files."""

    __slots__ = ("checked", "course_roots", "findings", "suppressed", "unreadable", "written")

    def __init__(
        self,
        findings: list[Finding] | None = None,
        unreadable: list[str] | None = None,
        checked: int = 0,
    ) -> None:
        self.findings: list[Finding] = [] if findings is None else findings
        self.unreadable: list[str] = [] if unreadable is None else unreadable
        self.checked = checked
        self.suppressed: list[Finding] = []  # silenced by a suppression comment: SARIF's
        self.course_roots: list[str] = []  # where a pending rename journal is looked for
        self.written: list[tuple[int, Written]] = []  # text lines made by forked copies

    @property
    def has_errors(self) -> bool:
        return any(f.severity == "error" for f in self.findings) or any(
            lines.errors for _, lines in self.written
        )


def _display(path: str, given: dict[str, str]) -> str:
    return given.get(path) or os.path.relpath(path)


def check_paths(
    paths: Sequence[str], language: str = EN, jobs: int | None = 1, as_text: bool = False
) -> CheckReport:
    """Course diagnostics for files and folders, exactly as the editor computes them
    (messages in `language`).

    Folders count as workspace folders (each course file inside starts a course); a
    course file above a path makes its whole course part of the check. A file outside
    every course is a course of its own, as when the editor opens it alone. `jobs`
    processes share a big course's scan and its documents' diagnostics (None: as many as
    pay, `parallel.fork_workers`). `as_text`: forked copies send the text report's lines
    of their documents (`report.written`) instead of their findings.
    """
    report = CheckReport()
    folders: list[str] = []
    targets: list[str] = []
    given: dict[str, str] = {}
    for raw in paths:
        path = os.path.abspath(raw)
        kind = classify(path)
        if kind == "file" and path.lower().endswith(".json"):
            _check_export(report, raw, path, language)
        elif isinstance(kind, Unusable):
            report.unreadable.append(f"cannot read {raw}: {kind.reason}")
        elif kind == "folder":
            root = nearest_course_root(path)
            folders.append(root if root is not None else path)
            found = markdown_files(path)
            structure = os.path.join(path, STRUCTURE)
            given.setdefault(structure, os.path.join(raw, STRUCTURE))
            for file in found:
                given.setdefault(
                    file, os.path.normpath(os.path.join(raw, os.path.relpath(file, path)))
                )
            targets.extend(found)
        else:
            root = nearest_course_root(os.path.dirname(path))
            if root is not None:
                folders.append(root)
            given.setdefault(path, raw)
            targets.append(path)
    targets = list(dict.fromkeys(targets))
    with twinned():  # copies that a big course's scan forks end with the block
        snapshot, courses, checked, made = _course_documents(
            report, folders, targets, given, language, jobs, as_text
        )
    report.written += [(len(report.findings) + at, lines) for at, lines in made.written]
    report.findings += made.kept
    report.suppressed += made.silenced
    report.unreadable += _over_limits(snapshot, [*checked, *folders], given, language)
    for course_id, course_file in sorted(courses.items(), key=lambda pair: pair[1]):
        items = course_file_diagnostics(snapshot, course_id, language)
        layout = snapshot.courses[course_id].config.layout
        if layout is not None and layout.structure is not None:
            _add_structure_findings(report, layout.structure, given, snapshot, course_id, language)
        if items:
            text = read_source(course_file, os.path.dirname(course_file))
            shown = "" if isinstance(text, Unusable) else text
            _add_findings(report, _display(course_file, given), shown, items)
    return report


def _course_documents(
    report: CheckReport,
    folders: list[str],
    targets: list[str],
    given: dict[str, str],
    language: str,
    jobs: int | None,
    as_text: bool,
) -> tuple[WorkspaceSnapshot, dict[str, str], dict[str, None], Found]:
    """The courses of `folders` and `targets` indexed, and the findings of `targets`'
    documents (language, jobs and text report as in `check_paths`); with the snapshot,
    the course files of the courses checked (by course id) and those courses."""
    workspace = Workspace(jobs=jobs)
    workspace.set_folders(folders)
    workspace.index_all()
    uris = {path: path_to_uri(path) for path in targets}
    for path, uri in uris.items():
        if workspace.snapshot.entry(uri) is None:
            if _in_course_folder(workspace.snapshot, path):
                continue  # README.md, course-description.md ...: not lessons there
            text = read_source(path)
            if isinstance(text, Unusable):
                report.unreadable.append(f"cannot read {given.get(path, path)}: {text.reason}")
                continue
            workspace.open(uri, text, None)
    snapshot = workspace.snapshot
    report.course_roots = sorted({c.root for c in snapshot.courses.values() if c.root})
    courses: dict[str, str] = {}
    checked: dict[str, None] = {}
    documents: list[Checked] = []
    for path, uri in uris.items():
        entered = snapshot.entry(uri)
        if entered is None:
            continue
        course, entry = entered
        checked[course.id] = None
        report.checked += 1
        documents.append(Checked(_display(path, given), entry.uri, entry.text))
        if course.config_path is not None:
            courses[course.id] = course.config_path
    made = documents_findings(snapshot, documents, language, jobs, as_text)
    return snapshot, courses, checked, made


def _in_course_folder(snapshot: WorkspaceSnapshot, path: str) -> bool:
    """Whether `path` lies in an AI-Shifu course folder (whose members are its lessons
    and course prompt only)."""
    return any(
        course.config.layout is not None
        and course.root is not None
        and os.path.commonpath([course.root, path]) == course.root
        for course in snapshot.courses.values()
    )


def _add_structure_findings(
    report: CheckReport,
    path: str,
    given: dict[str, str],
    snapshot: WorkspaceSnapshot,
    course_id: str,
    language: str,
) -> None:
    """The problems of the `structure.json` of an AI-Shifu course folder."""
    items = structure_file_diagnostics(snapshot, course_id, language)
    if items:
        text = read_source(path, os.path.dirname(path))
        shown = "" if isinstance(text, Unusable) else text
        _add_findings(report, _display(path, given), shown, items)


def _over_limits(
    snapshot: WorkspaceSnapshot, course_ids: Sequence[str], given: dict[str, str], language: str
) -> list[str]:
    """One line for each limit of mfls a checked course is over (its check incomplete)."""
    found: list[str] = []
    for course_id in dict.fromkeys(course_ids):
        course = snapshot.courses.get(course_id)
        if course is None:
            continue
        where = _display(course.config_path or course_id, given)
        found += [
            f"{where}: {config_problem_message(problem, language)}"
            for problem in course.problems
            if problem.over_limit
        ]
    return found


def _check_export(report: CheckReport, raw: str, path: str, language: str) -> None:
    """The diagnostics of an AI-Shifu export, each placed in one lesson's text; a text
    over the file size limit is unreadable, as the unpacked folder's file would be."""
    # Imported here: a check of lesson files never loads the export modules.
    from mfls.cli.exports import load_export
    from mfls.exports.ai_shifu import ExportProblem
    from mfls.exports.checking import check_export_course, export_course, over_limits

    loaded = load_export(path)
    if isinstance(loaded, ExportProblem):
        report.unreadable.append(loaded.message)
        return
    export, source = loaded
    report.checked += 1
    indexed = export_course(export, source, os.path.basename(path))
    for place, reason in indexed.skipped:
        lesson = " ".join(place.title.split())
        part = "" if place.field == "content" else f" [{place.field}]"
        report.unreadable.append(f"cannot read {raw}#{lesson}{part}: {reason}")
    report.unreadable += over_limits(indexed, raw, language)
    found = check_export_course(indexed, language)
    by_text: dict[str, list[Diagnostic]] = {}
    for item in found:
        by_text.setdefault(item.placed.path, []).append(item.diagnostic)
    texts = {item.placed.path: item for item in found}
    for text_path, items in by_text.items():
        first = texts[text_path]
        place = first.placed
        bid = place.bid if place.item is not None else None
        _add_findings(report, raw, first.text, items, (place.title, bid, place.field))


def _add_findings(
    report: CheckReport,
    shown: str,
    text: str,
    items: Sequence[Diagnostic],
    lesson: tuple[str, str | None, str] | None = None,
) -> None:
    """`items` placed in `text` as findings of the report."""
    report.findings.extend(placed(shown, text, items, lesson))


def report_text(report: CheckReport) -> str:
    """One `path:line:column: severity code message` line per finding (those forked
    copies wrote, `report.written`, included)."""
    return "".join(text_pieces(report.findings, report.written))


def report_json(report: CheckReport) -> str:
    import json  # loaded only for this format: a text check never needs it

    payload = {
        "diagnostics": [finding.as_json() for finding in report.findings],
        "unreadable": [decoded(problem) for problem in report.unreadable],
        "checked": report.checked,
        "suppressed": [finding.as_json() for finding in report.suppressed],
    }
    return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"


FORMATS: dict[str, Callable[[CheckReport], str]] = {
    "text": report_text,
    "json": report_json,
    "github": report_github,
    "sarif": report_sarif,
}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or folders to check")
    parser.add_argument(
        "--format",
        choices=tuple(FORMATS),
        default="text",
        help="output format: text (default), json, github (workflow annotations), sarif",
    )
    add_locale_option(parser)
    parser.add_argument(
        "--jobs",
        type=_jobs,
        default=None,
        metavar="N",
        help="processes sharing the check of a big course: its scan and its documents' "
        "diagnostics; at most the CPUs, or 4 (default: chosen from the work expected "
        "and the CPUs free)",
    )


def _jobs(value: str) -> int:
    try:
        jobs = int(value)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"not a positive number: {value!r}")
    return jobs


def run(args: argparse.Namespace) -> int:
    configure_stderr(logging.WARNING)
    as_text = args.format == "text"
    report = check_paths(args.paths, chosen_language(args.locale), args.jobs, as_text)
    warn_pending_renames("check", report.course_roots)
    for problem in report.unreadable:
        say("check", problem)
    if as_text:
        write_text(report.findings, report.written)
    else:
        write_stdout(FORMATS[args.format](report))
    if report.unreadable:
        return 2
    return 1 if report.has_errors else 0
