"""Courses written as one text: the one format every test of the suite writes them in.

A course text holds every file of a course, each after a header line `//- PATH` (a text
without a header is one lesson, `01.md`)::

    //- mfcourse.toml
    name = "Demo"
    lessons = ["01.md"]
    //- 01.md
    ?[{{ topic }} Python | JavaScript]

    Use {{ to$0pic }} and {{ topc }}.
    %%                    ^^^^^^^^^^ near-miss: Not bound in this course

- `$0` is the cursor (at most one in a course); it is taken out of the text.
- A line whose first non-blank characters are `%%` followed by carets, or carets
  followed by `%%`, is an annotation: a range of the nearest text line above it, with a
  label (a diagnostic's code, or what a test says of that range: `reference`, `write`, a
  token's type), optionally `: ` and a message, and never part of the text. `%%` starts
  no marker, interaction or Markdown construct, so no course line is read as an
  annotation by accident; a caret is a column (in code points, of the line as written,
  `$0` included) of that text line::

      Use {{ topc }} here.
      %%  ^^^^^^^^^^ near-miss
      {{ x }} at the start of a line
      ^^^^^^^ %% unbound-reference: No lesson asks “x”

  `^^^^+` means the range goes on past the end of this line (its end is not compared);
  a lone `|` is an empty range at its column.
- `//- PATH closed`: the file is in the course but not opened by a client. A PATH may
  hold folders (`//- lessons/01.md`).

`render` writes files back with annotations under their lines, so that what a feature
finds can be compared, whole, with the annotated course a test writes. `Course` indexes
a course in memory (a `MemoryDisk` folder `/course`; no file is written or read) for the
feature tests; `tests.kit.memory_client.CourseClient` runs the server on one. `expect`
compares a whole rendering with a stored snapshot. `no_disk` puts the real file system
out of reach.
"""

from __future__ import annotations

import builtins
import difflib
import io
import os
import posixpath
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from mfls.disk.memory import MemoryDisk
from mfls.workspace.config import COURSE_FILE
from mfls.workspace.index import WorkspaceSnapshot
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace

if TYPE_CHECKING:  # the renderers' types; features are imported where they are rendered
    from mfls.features.completion import Completion
    from mfls.features.finding import Diagnostic
    from mfls.features.hover import HoverInfo
    from mfls.features.semantic_tokens import SemanticToken
    from mfls.features.symbols import DocumentSymbol

HEADER = "//- "
CURSOR = "$0"
DEFAULT_FILE = "01.md"
ROOT = "/course"
_ANNOTATION = re.compile(
    r"^[ ]*(?:%%[ ]*(?P<a>\^+\+?|\|)|(?P<b>\^+\+?|\|)[ ]*%%)(?:[ ]+(?P<rest>.*))?$"
)


@dataclass(frozen=True, order=True)
class Annotation:
    """A labelled range: `line` and columns in code points of the text without the
    cursor; `end` None: the range ends on a later line. `code`: its label (a diagnostic's
    code); `message`: a diagnostic's message (or its start), or what else the label
    says."""

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
    """Where `$0` was, in the text without it."""

    path: str
    line: int
    column: int  # code points


@dataclass
class Fixture:
    """A parsed course text; `closed`: the files not opened."""

    files: dict[str, str]  # as the server sees them: no cursor, no annotation
    annotations: list[Annotation] = field(default_factory=list)
    cursor: Cursor | None = None
    closed: set[str] = field(default_factory=set)


def parse(fixture: str) -> Fixture:
    """Read a course text (see the module docstring); its common indentation is removed."""
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


def files_with_cursor(files: Mapping[str, str]) -> Fixture:
    """A course given as path -> text, a `$0` in one text the cursor (no annotation is
    read: the texts are taken as they are)."""
    parsed = Fixture(files={})
    for path, text in files.items():
        parsed.files[path] = _take_cursor(path, text, parsed)
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
    return _take_cursor(path, "".join(lines), into)


def _take_cursor(path: str, text: str, into: Fixture) -> str:
    """`text` without its `$0`, noted as `into`'s cursor (annotations moved with it)."""
    at = text.find(CURSOR)
    if at < 0:
        return text
    if into.cursor is not None or CURSOR in text[at + len(CURSOR) :]:
        raise ValueError(f"more than one cursor {CURSOR!r} in the fixture")
    into.cursor = Cursor(path, *line_and_column(text, at))
    into.annotations[:] = [_without_cursor(a, into.cursor) for a in into.annotations]
    return text[:at] + text[at + len(CURSOR) :]


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
    course text writes them (with the cursor, when given): the files some annotation is
    on, and `paths`."""
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


def compare(
    fixture: Fixture, actual: Iterable[Annotation], *, exact: bool = True, what: str = "marks found"
) -> None:
    """Fail unless `actual` are the fixture's annotations: each at its range, with its
    label, and its message (the whole message, or only its start when not `exact`). The
    failure shows both as annotated text and a diff, and `actual` ready to paste."""
    expected = fixture.annotations
    found = list(actual)
    shown = [_as_expected(a, expected, exact) for a in found]
    if sorted(shown) == sorted(expected):
        return
    both = {a.path for a in [*expected, *shown]}
    files, cursor = fixture.files, fixture.cursor
    want, got = render(files, expected, both, cursor), render(files, shown, both, cursor)
    diff = difflib.unified_diff(
        want.splitlines(), got.splitlines(), "annotations", what, lineterm=""
    )
    raise AssertionError(
        f"the {what} are not the annotations:\n"
        + "\n".join(diff)
        + f"\n\nThe {what}, as annotations:\n"
        + render(files, found, (), cursor)
    )


def _as_expected(actual: Annotation, expected: list[Annotation], exact: bool) -> Annotation:
    """`actual` with its message cut to the expected annotation's it matches (when not
    `exact`), so that only what the annotations say is compared."""
    if exact:
        return actual
    for want in expected:
        same = (want.path, want.line, want.start, want.end, want.code) == (
            actual.path,
            actual.line,
            actual.start,
            actual.end,
            actual.code,
        )
        if same and actual.message.startswith(want.message):
            return want
    return actual


def lines_of(text: str, keepends: bool = False) -> list[str]:
    """The lines of `text`, ended by LF, CRLF or CR (as LSP and mfls end them)."""
    parts = re.split(r"(\r\n|\r|\n)", text)
    lines = [a + b for a, b in zip(parts[0::2], [*parts[1::2], ""], strict=True)]
    if lines and lines[-1] == "":
        lines.pop()
    return lines if keepends else [line.rstrip("\r\n") for line in lines]


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """The line and code point column of a code point `offset` of `text`."""
    lines = lines_of(text[:offset], keepends=True)
    if not lines:
        return 0, 0
    if lines[-1].endswith(("\n", "\r")):
        return len(lines), 0
    return len(lines) - 1, len(lines[-1])


def offset_at(text: str, line: int, column: int) -> int:
    """The code point offset of a line and column of `text`."""
    return sum(len(x) for x in lines_of(text, keepends=True)[:line]) + column


# -- courses in memory ----------------------------------------------------------------


Mark = tuple[str, int, int, str] | tuple[str, int, int, str, str]
"""A range a feature found, in offsets: (path, start, end, label[, message])."""


class Course:
    """A course indexed from memory under `root` (a `MemoryDisk`: nothing written or
    read); `folders` (relative to it) are the workspace folders, the root itself when
    none are given. `fixture` holds its files, cursor and annotations."""

    def __init__(self, fixture: Fixture, *, folders: Iterable[str] = (), root: str = ROOT) -> None:
        self.fixture = fixture
        self.root = root
        self.disk = MemoryDisk({self.path(name): text for name, text in fixture.files.items()})
        self.workspace = Workspace(disk=self.disk)
        self.workspace.set_folders([self.path(f) for f in folders] or [root])
        self.workspace.index_all()

    @property
    def snapshot(self) -> WorkspaceSnapshot:
        return self.workspace.snapshot

    @property
    def cursor_name(self) -> str | None:
        """The document holding the cursor, if any."""
        return None if self.fixture.cursor is None else self.fixture.cursor.path

    @property
    def offset(self) -> int:
        """The offset of the cursor, in document `cursor_name`."""
        cursor = self.fixture.cursor
        if cursor is None:
            raise ValueError(f"the course has no cursor mark {CURSOR!r}")
        return offset_at(self.fixture.files[cursor.path], cursor.line, cursor.column)

    @property
    def cursor_uri(self) -> str:
        """The URI of the document holding the cursor."""
        if self.cursor_name is None:
            raise ValueError(f"the course has no cursor mark {CURSOR!r}")
        return self.uri(self.cursor_name)

    def path(self, name: str) -> str:
        return posixpath.join(self.root, name)

    def uri(self, name: str) -> str:
        return path_to_uri(self.path(name))

    def name_of(self, uri: str) -> str:
        """The course-relative path of a document's URI."""
        for name in self.fixture.files:
            if self.uri(name) == uri:
                return name
        raise KeyError(uri)

    def text(self, name: str) -> str:
        """The indexed text of document `name`."""
        found = self.snapshot.entry(self.uri(name))
        assert found is not None, name
        return found[1].text

    def offset_of(self, name: str, needle: str, shift: int = 0) -> int:
        """The offset of the first `needle` in document `name`, plus `shift`."""
        return self.text(name).index(needle) + shift

    def open(self, name: str) -> str:
        """Open document `name` in the workspace as an editor's buffer (version 1, its
        text as indexed), so that edits can follow; its URI."""
        uri = self.uri(name)
        self.workspace.open(uri, self.text(name), 1)
        return uri

    def annotation(self, mark: Mark) -> Annotation:
        """A mark (offsets) as an annotation (lines and columns)."""
        name, start, end, label, *message = mark
        text = self.fixture.files[name]
        line, column = line_and_column(text, start)
        end_line, end_column = line_and_column(text, end)
        last = end_column if end_line == line else None
        return Annotation(name, line, column, last, label, "".join(message))

    def marked(self, marks: Iterable[Mark], paths: Iterable[str] = ()) -> str:
        """The files marks are on (and `paths`), with the marks as annotations and the
        cursor where it was: the text to compare with a course text written whole."""
        found = [self.annotation(mark) for mark in marks]
        return render(self.fixture.files, found, paths, self.fixture.cursor)

    def check(self, marks: Iterable[Mark], *, exact: bool = True) -> None:
        """Fail unless `marks` are the course text's annotations (`compare`)."""
        compare(self.fixture, [self.annotation(mark) for mark in marks], exact=exact)


def course_text(text: str, *, folders: Iterable[str] = ()) -> Course:
    """A course from a course text (`parse`)."""
    return Course(parse(text), folders=folders)


def course(
    *named: str | Mapping[str, str],
    config: str | None = None,
    folders: Iterable[str] = (),
) -> Course:
    """A course from a mapping of names to texts, or from names and texts in turn (each
    text taken as it is but for its `$0`); `config` is the text of its course file."""
    if len(named) == 1 and isinstance(named[0], Mapping):
        files = dict(named[0])
    else:
        if len(named) % 2 or not all(isinstance(part, str) for part in named):
            raise TypeError("give one mapping, or names and texts in turn")
        texts = [str(part) for part in named]
        files = dict(zip(texts[::2], texts[1::2], strict=True))
    if config is not None:
        if COURSE_FILE in files:
            raise ValueError(f"{COURSE_FILE} given twice")
        files[COURSE_FILE] = config
    return Course(files_with_cursor(files), folders=folders)


# -- feature answers as text ------------------------------------------------------------


def covered(text: str, start: int, end: int) -> str:
    """The text of a range on one line, else where it starts and ends (line:column, from
    1)."""
    if "\n" not in text[start:end]:
        return repr(text[start:end])
    return f"{place(text, start)} to {place(text, end)}"


def place(text: str, offset: int) -> str:
    """`line:column` of an offset, from 1."""
    return f"{text.count(chr(10), 0, offset) + 1}:{offset - text.rfind(chr(10), 0, offset)}"


def outline(text: str, symbols: Iterable[DocumentSymbol], depth: int = 0) -> str:
    """Document symbols a line each, nested by indentation: kind, name, detail, what the
    range covers and the text of the selection."""
    out = ""
    for s in symbols:
        detail = f" ({s.detail})" if s.detail else ""
        out += (
            f"{'  ' * depth}{s.kind} {s.name!r}{detail}: {covered(text, s.start, s.end)}"
            f" at {text[s.selection_start : s.selection_end]!r}\n"
        )
        out += outline(text, s.children, depth + 1)
    return out


def diagnostic_marks(made: Course, name: str, found: Iterable[Diagnostic]) -> list[Mark]:
    """Diagnostics of document `name` as marks labelled `code severity` (and `tag` after
    them, when tagged) with their whole message; each related place a mark `related` of
    its own document, with its message."""
    marks: list[Mark] = []
    for d in found:
        label = " ".join([d.code, d.severity, *d.tags])
        marks.append((name, d.start, d.end, label, d.message))
        marks += [(made.name_of(uri), s, e, "related", why) for uri, s, e, why in d.related]
    return marks


def hover_text(made: Course, found: HoverInfo | None, name: str | None = None) -> str:
    """A hover as the range it covers (of document `name`, the cursor's by default), then
    its whole markdown."""
    if found is None:
        return "no hover"
    text = made.text(name or made.cursor_name or DEFAULT_FILE)
    return f"hover over {covered(text, found.start, found.end)}\n---\n{found.markdown}"


def completion_text(text: str, found: Completion | None, documentation: bool = False) -> str:
    """A completion list as the editor shows it: the range it replaces, whether it is
    incomplete, then an item a line in rank order (key, kind, detail, what accepting it
    writes; its documentation below it, indented, when asked)."""
    if found is None:
        return "no completion"
    lines = [
        f"replaces {covered(text, found.start, found.end)} at {place(text, found.start)}",
        f"incomplete: {str(found.is_incomplete).lower()}",
    ]
    for item in sorted(found.items, key=lambda i: (i.sort_text, i.key)):
        doubt = f" ({item.doubt})" if item.doubt else ""
        lines.append(
            f"{item.key} | {item.kind}{doubt} | {item.detail} | {found.new_text(item.key)!r}"
        )
        if documentation:
            lines += ["    " + line if line else "" for line in item.documentation.split("\n")]
    return "\n".join(lines) + "\n"


def token_lines(text: str, found: Iterable[SemanticToken]) -> list[str]:
    """Semantic tokens in order, each as its type, its modifiers and the text it covers."""
    from mfls.features.semantic_tokens import TOKEN_MODIFIERS, TOKEN_TYPES

    lines = []
    for t in found:
        names = [m for i, m in enumerate(TOKEN_MODIFIERS) if t.modifiers >> i & 1]
        kind = ".".join([TOKEN_TYPES[t.type], *names])
        lines.append(f"{kind} {text[t.start : t.start + t.length]!r}")
    return lines


# -- snapshots --------------------------------------------------------------------------

UPDATE = "UPDATE_EXPECT"


def updating() -> bool:
    return os.environ.get(UPDATE, "") not in ("", "0")


def expect(actual: str, name: str, *, snapshots: Path | None = None) -> None:
    """`actual` is the snapshot `name` (under `snapshots`, by default the `snapshots`
    folder beside the calling test file); `UPDATE_EXPECT=1` writes it instead, then read
    the change in `git diff`. Without it a missing snapshot fails: no test passes on a
    file it wrote."""
    if snapshots is None:
        snapshots = Path(sys._getframe(1).f_code.co_filename).parent / "snapshots"
    if not actual.endswith("\n"):
        actual += "\n"
    with disk_allowed():  # the snapshots are the tests' own files
        _compare_snapshot(actual, snapshots / name)


def _compare_snapshot(actual: str, path: Path) -> None:
    stored = path.read_text(encoding="utf-8") if path.exists() else None
    if stored == actual:
        return
    if updating():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    if stored is None:
        raise AssertionError(f"no snapshot {path}; {UPDATE}=1 writes it from:\n{actual}")
    diff = difflib.unified_diff(
        stored.splitlines(), actual.splitlines(), str(path), "actual", lineterm=""
    )
    raise AssertionError(f"{path} differs ({UPDATE}=1 rewrites it):\n" + "\n".join(diff))


# -- the real file system out of reach ------------------------------------------------

GUARDED = (
    (builtins, "open"),
    (io, "open"),
    (os, "open"),
    (os, "scandir"),
    (os, "listdir"),
    (os, "stat"),
    (os, "lstat"),
    (os, "access"),
    (os, "mkdir"),
    (os, "makedirs"),
    (os, "replace"),
    (os, "rename"),
    (os, "remove"),
    (os, "unlink"),
    (os, "getcwd"),
)
"""Every way to the file system `mfls.disk` and `pathlib` take (`os.path` and `pathlib`
go through `os.stat`, `os.lstat`, `os.scandir` and `os.getcwd`)."""


class DiskTouched(AssertionError):
    """A test meant to run in memory reached the real file system."""


def _refuse(name: str) -> Callable[..., NoReturn]:
    def refused(*args: object, **kwargs: object) -> NoReturn:
        raise DiskTouched(f"a feature test called {name}{args!r}: build the course in memory")

    return refused


_GUARDS: list[list[tuple[object, str, object]]] = []
"""What each `no_disk` running replaced (the originals), innermost last."""


@contextmanager
def no_disk() -> Iterator[None]:
    """The file system out of reach while the block runs."""
    saved = [(module, name, getattr(module, name)) for module, name in GUARDED]
    for module, name, _ in saved:
        setattr(module, name, _refuse(f"{module.__name__}.{name}"))
    _GUARDS.append(saved)
    try:
        yield
    finally:
        _GUARDS.remove(saved)
        for module, name, original in saved:
            setattr(module, name, original)


@contextmanager
def disk_allowed() -> Iterator[None]:
    """The file system within reach again inside a `no_disk` block (for the test kit's
    own files: snapshots)."""
    if not _GUARDS:
        yield
        return
    outer = _GUARDS[0]
    refused = [(module, name, getattr(module, name)) for module, name, _ in outer]
    for module, name, original in outer:
        setattr(module, name, original)
    try:
        yield
    finally:
        for module, name, refusal in refused:
            setattr(module, name, refusal)
