"""Document links in `mfcourse.toml`: each `lessons` / `references` glob to its files.

A glob names many files and a link has one target: each glob string links to the first
file it matches in course order, and its tooltip says how many it matches and names the
first few. A glob that matches no document of the course gets no link. (A literal path
is a glob that matches one file.)
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass

from mfls.workspace.globs import exact_name, matches
from mfls.workspace.index import CourseSnapshot, DocEntry, WorkspaceSnapshot, relative_path
from mfls.workspace.uris import canonical_uri, path_to_uri

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

GLOB_FIELDS = ("lessons", "references")
_SHOWN = 5  # file names a tooltip lists


@dataclass(frozen=True)
class DocumentLink:
    start: int  # the glob's string literal, quotes included
    end: int
    target: str  # a file: URI
    tooltip: str


@dataclass(frozen=True)
class GlobString:
    field: str  # "lessons" | "references"
    value: str  # the decoded string
    start: int
    end: int


_FIELD = re.compile(r"^[ \t]*(?P<field>lessons|references)[ \t]*=[ \t]*", re.MULTILINE)
_TABLE = re.compile(r"^[ \t]*\[", re.MULTILINE)
_BASIC = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_LITERAL = re.compile(r"'[^'\n]*'")


def glob_strings(text: str) -> list[GlobString]:
    """The string literals of the top-level `lessons` and `references` arrays (or a
    single string), with their offsets. Text that is not such TOML yields nothing."""
    table = _TABLE.search(text)
    top_end = table.start() if table is not None else len(text)
    found: list[GlobString] = []
    for match in _FIELD.finditer(text, 0, top_end):
        at = match.end()
        if text.startswith("[", at):
            found.extend(_array_strings(text, match["field"], at + 1))
        else:
            item = _string_at(text, match["field"], at)
            if item is not None:
                found.append(item)
    return found


def _array_strings(text: str, field: str, at: int) -> list[GlobString]:
    found: list[GlobString] = []
    size = len(text)
    while at < size:
        char = text[at]
        if char == "]":
            break
        if char in " \t\r\n,":
            at += 1
        elif char == "#":
            newline = text.find("\n", at)
            at = size if newline < 0 else newline + 1
        else:
            item = _string_at(text, field, at)
            if item is None:
                break
            found.append(item)
            at = item.end
    return found


def _string_at(text: str, field: str, at: int) -> GlobString | None:
    if text.startswith(('"""', "'''"), at):
        return None
    pattern = _BASIC if text.startswith('"', at) else _LITERAL
    match = pattern.match(text, at)
    if match is None:
        return None
    try:
        value = tomllib.loads(f"v = {match.group()}")["v"]
    except tomllib.TOMLDecodeError:
        return None
    return GlobString(field, value, match.start(), match.end())


def course_of_file(snapshot: WorkspaceSnapshot, uri: str) -> CourseSnapshot | None:
    wanted = canonical_uri(uri)
    for course in snapshot.courses.values():
        path = course.config_path
        if path is not None and canonical_uri(path_to_uri(path)) == wanted:
            return course
    return None


def course_file_links(snapshot: WorkspaceSnapshot, uri: str, text: str) -> list[DocumentLink]:
    """The links of the course file at `uri`, whose text is `text`."""
    course = course_of_file(snapshot, uri)
    if course is None or course.root is None:
        return []
    root = course.root
    members = sorted(
        (entry for entry in course.docs.values() if entry.path is not None),
        key=lambda entry: entry.order,
    )
    relative = {entry.uri: relative_path(entry.path or "", root) for entry in members}
    named = {relative[entry.uri]: entry for entry in members}
    links: list[DocumentLink] = []
    for item in glob_strings(text):
        pattern = item.value.strip()
        if not pattern:
            continue
        name = exact_name(pattern)
        if name is not None:  # a set lookup: `mfls unpack` lists every lesson
            matched = [named[name]] if name in named else []
        else:
            matched = [e for e in members if matches(pattern, relative[e.uri])]
        if matched:
            links.append(
                DocumentLink(item.start, item.end, matched[0].uri, _tooltip(matched, relative))
            )
    return links


def _tooltip(matched: list[DocEntry], relative: dict[str, str]) -> str:
    names = ", ".join(relative[e.uri] for e in matched[:_SHOWN])
    more = f" and {len(matched) - _SHOWN} more" if len(matched) > _SHOWN else ""
    if len(matched) == 1:
        return f"Open {names}"
    return f"{len(matched)} files: {names}{more}. Opens the first."
