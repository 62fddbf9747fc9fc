"""Nothing mfls writes breaks AI-Shifu's learner page (issue 28): every edit mfls offers
on an AI-Shifu course, applied, and each binding it writes read by the real remark-flow of
every page version the course targets (`remark_flow_page.py`, Node).

The edits: every code action at every marker and over each whole document (quick fixes,
merges, the page's own fixes, the source actions of the document and of the course, each
as plain text and as a snippet), the rename of every key to a new identifier, every
completion item at every binding (the key being typed, and the marker closed), and every
interaction snippet after a new `?[` (see `completion_edits` for the one kind of binding
left out). A binding is *written* by an edit when its line is
new or changed and did not hold that same binding before. The course is sampled under
each page setting (both versions, 0.1.6 alone, 1.0.0-alpha.7 alone) and under two
targets, and the real AI-Shifu exports are swept too.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from remark_flow_page import page_readings, require_page

from mfls.disk.memory import MemoryDisk
from mfls.exports.ai_shifu import ExportProblem, read_export
from mfls.exports.checking import export_course
from mfls.features import rename as rn
from mfls.features.code_actions import CodeAction, code_actions
from mfls.features.completion import complete
from mfls.features.rename import WorkspaceChange
from mfls.features.snippets import interaction_snippets
from mfls.syntax.model import Role
from mfls.syntax.scanner import scan
from mfls.text.edits import TextChange, apply_changes
from mfls.workspace.index import CourseSnapshot, WorkspaceSnapshot
from mfls.workspace.learner_page import page_versions
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace
from tests.ai_shifu_exports import shared_exports

ROOT = "/course"
LESSON_1 = """# Start

?[%{{level}} Beginner | Intermediate | Advanced]

?[%{{ goal }} Job | Fun | ...Other]

?[{{ pace }} Slow | Fast]

?[%{{What would you like to learn?}} Python | JavaScript]

?[%{{学习目标}} 工作 | 兴趣]

?[%{{ 2nd_try }} Yes | No]

?[%{{mood}}]

?[{{Your name}} ...Type it]

Use {{level}} and {{ goal }}, {{ pace }}, {{ levl }}, {{topic}} and {{ mood }}.
"""
LESSON_2 = """# Next

?[%{{style}} Visual || Verbal || ...Other]

?[%{{sys_user_nickname}} ...Your name]

Plan for {{ What would you like to learn? }}, {{style}} and {{ What is your name? }}.

Then {{ 学习目标 }} and {{ 2nd_try }} and {{Your name}}.
"""
PROMPT = "Speak to {{ level }} learners about {{ goal }} and {{ stlye }}.\n"
COURSE_FILE = (
    'name = "Sweep"\nhost = "ai-shifu"\nlessons = ["01.md", "02.md"]\nreferences = ["prompt.md"]\n'
)
SETTINGS = {
    "both versions": "",
    "remark-flow 0.1.6": 'page = "remark-flow-0.1.6"\n',
    "remark-flow 1.0.0-alpha.7": 'page = "remark-flow-1.0.0-alpha.7"\n',
    "both versions, target current": 'target = "current"\n',
}
_SNIPPET_STOP = re.compile(r"\$\{\d+:([^}]*)\}|\$\d+")
_SNIPPET_ESCAPE = re.compile(r"\\([\\$}])")


@dataclass(frozen=True)
class Written:
    """A binding an edit writes: the edit, the interaction line and the key."""

    edit: str
    line: str
    key: str


def index(files: Mapping[str, str]) -> WorkspaceSnapshot:
    disk = MemoryDisk({os.path.join(ROOT, name): text for name, text in files.items()})
    workspace = Workspace(disk=disk)
    workspace.set_folders([ROOT])
    workspace.index_all()
    return workspace.snapshot


def uri_of(name: str) -> str:
    return path_to_uri(os.path.join(ROOT, name))


def only_course(snapshot: WorkspaceSnapshot) -> CourseSnapshot:
    [course] = snapshot.courses.values()
    return course


def written_bindings(edit: str, before: str, after: str) -> Iterator[Written]:
    """The bindings of one-line interactions that `after` holds on a new or changed line
    which did not hold that same binding in `before`."""
    old_lines = before.splitlines()
    new_lines = after.splitlines()
    result = scan(after)
    starts = [0]
    for line in after.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    matcher = difflib.SequenceMatcher(a=old_lines, b=new_lines, autojunk=False)
    for tag, a1, a2, b1, b2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        old = "\n".join(old_lines[a1:a2])
        for marker in result.markers:
            if marker.role is not Role.BINDING:
                continue
            row = next(r for r in range(len(starts) - 1) if starts[r + 1] > marker.start)
            if not b1 <= row < b2:
                continue
            line = new_lines[row].strip(" \t")
            if not line.startswith("?["):
                continue
            spelled = after[marker.start : marker.end]
            if ("?[" + spelled) in old and line.startswith("?[" + spelled):
                continue
            yield Written(edit, line, marker.key)


def applied(change: WorkspaceChange) -> Iterator[tuple[str, str]]:
    for document in change.documents:
        yield document.text, apply_changes(document.text, list(document.changes))


def snippet_plain(change: WorkspaceChange) -> WorkspaceChange:
    """A snippet change as the text a client inserts (tab stops by their placeholders)."""

    def plain(text: str) -> str:
        return _SNIPPET_ESCAPE.sub(r"\1", _SNIPPET_STOP.sub(lambda m: m.group(1) or "", text))

    documents = tuple(
        dataclasses.replace(
            d, changes=tuple(TextChange(c.start, c.end, plain(c.new_text)) for c in d.changes)
        )
        for d in change.documents
    )
    return dataclasses.replace(change, documents=documents)


def action_edits(snapshot: WorkspaceSnapshot) -> Iterator[tuple[str, WorkspaceChange]]:
    """Every code action at every marker and over each whole document."""
    seen: set[tuple[str, str, str]] = set()
    course = only_course(snapshot)
    for entry in sorted(course.docs.values(), key=lambda e: e.order):
        ranges = [(m.start, m.end) for m in rn.doc_marker_scan(entry).markers]
        ranges.append((0, len(entry.text)))
        for start, end in ranges:
            for action in code_actions(snapshot, entry.uri, start, end):
                yield from _unseen(seen, entry.uri, action)


def _unseen(
    seen: set[tuple[str, str, str]], uri: str, action: CodeAction
) -> Iterator[tuple[str, WorkspaceChange]]:
    if (uri, action.kind, action.title) in seen:
        return
    seen.add((uri, action.kind, action.title))
    name = f"{action.kind}: {action.title}"
    yield name, action.change
    if action.snippet_change is not None:
        yield name + " (snippet)", snippet_plain(action.snippet_change)


def rename_edits(snapshot: WorkspaceSnapshot) -> Iterator[tuple[str, WorkspaceChange]]:
    """The rename of every key of the course to a new identifier."""
    course = only_course(snapshot)
    for number, key in enumerate(sorted(course.all_keys())):
        change = rn.rename_key(course, key, f"renamed_{number}")
        if isinstance(change, WorkspaceChange):
            yield f"rename {key!r}", change


def completion_edits(files: Mapping[str, str]) -> Iterator[tuple[str, str, str]]:
    """(edit, text before, text after) of every completion item at every `%{{` binding:
    the marker closed with the cursor after its key, and the key being typed (one letter
    typed, the marker not closed yet). In a binding opened without `%` (which no page
    version reads, whatever its key) a completion writes only the key the author types;
    that binding's own diagnostics and fixes add the `%`."""
    for name, text in files.items():
        if not name.endswith(".md"):
            continue
        for marker in scan(text).markers:
            if marker.role is not Role.BINDING or not marker.legacy:
                continue
            typing = text[: marker.key_start] + marker.key[:1] + text[marker.end :]
            variants = [
                ("closed", text, marker.key_end),
                ("typing", typing, marker.key_start + 1),
            ]
            for how, variant, offset in variants:
                snapshot = index({**files, name: variant})
                found = complete(snapshot, uri_of(name), offset)
                if found is None:
                    continue
                for item in found.items:
                    new = found.new_text(item.key)
                    after = variant[: found.start] + new + variant[found.end :]
                    yield f"complete {item.key!r} ({how}) in {name}", variant, after


def snippet_edits(files: Mapping[str, str]) -> Iterator[tuple[str, str, str]]:
    """Every interaction snippet after a new `?[` at the end of each lesson."""
    for name, text in files.items():
        if not name.endswith(".md"):
            continue
        variant = text + "\n?[]\n"
        offset = len(text) + 3
        found = interaction_snippets(index({**files, name: variant}), uri_of(name), offset)
        assert found is not None
        for item in found.items:
            after = variant[: found.start] + item.plain + variant[found.end :]
            yield f"snippet {item.label!r} in {name}", variant, after


def every_written(files: Mapping[str, str]) -> tuple[int, list[Written]]:
    """How many edits mfls offers on the course of `files`, and every binding they write."""
    snapshot = index(files)
    edits = 0
    found: list[Written] = []
    for name, change in [*action_edits(snapshot), *rename_edits(snapshot)]:
        edits += 1
        for before, after in applied(change):
            found.extend(written_bindings(name, before, after))
    for name, before, after in [*completion_edits(files), *snippet_edits(files)]:
        edits += 1
        found.extend(written_bindings(name, before, after))
    return edits, found


def unread(written: list[Written], versions: tuple[str, ...]) -> list[str]:
    """Each written binding some version of the page does not read as its key."""
    failures: list[str] = []
    for version in versions:
        readings = page_reading(version)
        for w in written:
            elements = readings[w.line]["elements"]
            variable = elements[0].get("variableName") if elements else None
            if variable != w.key:
                failures.append(f"{version} reads {variable!r} in {w.line!r} ({w.edit})")
    return failures


def course_files(setting: str) -> dict[str, str]:
    return {
        "mfcourse.toml": COURSE_FILE + SETTINGS[setting],
        "01.md": LESSON_1,
        "02.md": LESSON_2,
        "prompt.md": PROMPT,
    }


def export_files(path: Path) -> dict[str, str]:
    data = path.read_bytes()
    export = read_export(data)
    assert not isinstance(export, ExportProblem), export
    folder = export_course(export, data, path.name).folder
    return {
        name: content.decode("utf-8")
        for name, content in folder.files.items()
        if name == "mfcourse.toml" or name.endswith(".md")
    }


def export_paths() -> list[Path]:
    exports = shared_exports()
    return sorted(exports.glob("*.json")) if exports is not None else []


CONTROL = [
    *written_bindings("pad", LESSON_1, LESSON_1.replace("%{{level}}", "%{{ level }}")),
    *written_bindings("convert", LESSON_1, LESSON_1.replace("%{{mood}}", "{{ mood }}")),
]


@cache
def sweep(name: str) -> tuple[tuple[str, ...], int, list[Written]]:
    """The page versions the course `name` targets (a setting, or an export's file name),
    how many edits mfls offers on it, and the bindings they write."""
    if name in SETTINGS:
        files = course_files(name)
    else:
        [path] = [p for p in export_paths() if p.name == name]
        files = export_files(path)
    versions = page_versions(only_course(index(files)).config)
    return (versions, *every_written(files))


@cache
def page_reading(version: str) -> dict[str, dict[str, Any]]:
    """The page's reading of every line any sweep (and the control) writes: one Node
    process per version."""
    names = [*SETTINGS, *(p.name for p in export_paths())]
    lines = sorted({w.line for n in names for w in sweep(n)[2]} | {w.line for w in CONTROL})
    return dict(zip(lines, page_readings(version, lines), strict=True))


@pytest.mark.parametrize("setting", SETTINGS)
def test_every_edit_mfls_offers_writes_bindings_the_page_reads(setting: str) -> None:
    require_page()
    versions, edits, written = sweep(setting)
    assert versions
    assert edits > 100
    assert len(written) > 50, "the sweep must write bindings to check"
    assert unread(written, versions) == []


def test_the_sweep_catches_a_binding_the_page_does_not_read() -> None:
    """The check fails on what mfls wrote before: `%{{ level }}` (padding, 0.1.6), and a
    binding without `%` (neither version)."""
    require_page()
    assert [w.key for w in CONTROL] == ["level", "mood"]
    failures = unread(CONTROL, ("remark-flow-0.1.6", "remark-flow-1.0.0-alpha.7"))
    assert len(failures) == 3, failures  # 0.1.6 reads neither, 1.0.0-alpha.7 the padded one


@pytest.mark.parametrize("name", [p.name for p in export_paths()] or ["(none)"])
def test_every_edit_on_the_real_exports_writes_bindings_the_page_reads(name: str) -> None:
    require_page()
    if not export_paths():
        pytest.skip("the real AI-Shifu exports are not here")
    versions, edits, written = sweep(name)
    assert edits > 0 and written, name
    assert unread(written, versions) == [], name
