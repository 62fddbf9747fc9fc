"""An AI-Shifu course as an author gets it (`mfls unpack` of an export), of any size, whose
problems depend on its course: under host `ai-shifu`, `%{{sys_user_nickname}}` is the
warning `legacy-profile-key` and `!===` left open is `fixed-output-unclosed`; read alone,
without its course, the first lesson would get `legacy-binding` advice and the others
"unbound" keys. Used by the cold-start tests (e2e and real editors): the first problems a
client is given must be `mfls check`'s."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

from tests.kit.cli import mfls
from tests.kit.exports import dumps, export, item, node

CHAPTER = 50  # lessons per chapter
SEVERITY_NAMES = {1: "error", 2: "warning", 3: "information", 4: "hint"}


def lesson_text(n: int) -> str:
    if n == 0:
        return (
            "?[%{{sys_user_nickname}} ...Your nickname]\n\n"
            "Greet {{sys_user_nickname}}.\n\n"
            "?[%{{level}} Beginner | Expert]\n"
        )
    if n % 2:
        return (
            "Adapt to {{level}} and {{sys_user_background}}.\n\n"
            f"?[%{{{{goal_{n}}}}} Read | Write]\n\n"
            "!===\nThis fixed output is never closed.\n"
        )
    return f"Thank {{{{sys_user_nickname}}}}, whose goal is {{{{goal_{n - 1}}}}}.\n"


def course_export(lessons: int) -> bytes:
    items: list[dict[str, Any]] = []
    chapters: list[dict[str, Any]] = []
    for c in range((lessons + CHAPTER - 1) // CHAPTER):
        chapter = f"c{c}"
        items.append(item(chapter, f"Chapter {c + 1}", position=f"{c + 1:02d}"))
        children = []
        for n in range(c * CHAPTER, min(lessons, (c + 1) * CHAPTER)):
            text = lesson_text(n)
            items.append(item(f"l{n}", f"Lesson {n + 1}", text, parent=chapter))
            children.append(node(f"l{n}"))
        chapters.append(node(chapter, children))
    return dumps(export(items, chapters, title="Cold start"))


def unpacked_course(folder: Path, lessons: int) -> tuple[Path, list[Path]]:
    """The course of `lessons` lessons unpacked into `folder`/course, and its lessons in
    course order."""
    source = folder / "course.json"
    source.write_bytes(course_export(lessons))
    root = folder / "course"
    done = mfls("unpack", str(source), str(root), timeout=300)
    assert done.returncode == 0, done.stderr
    files = sorted(root.glob("*/*.md"))
    assert len(files) == lessons
    return root, files


class Problem(NamedTuple):
    """A problem as a person reads it: 1-based line and code point column."""

    line: int
    column: int
    severity: str
    code: str
    message: str


def checked(root: Path) -> dict[Path, list[Problem]]:
    """`mfls check --format json` of the course: its problems by file."""
    done = mfls("check", "--format", "json", str(root), timeout=300)
    assert done.returncode in (0, 1), done.stderr
    found: dict[Path, list[Problem]] = {}
    for d in json.loads(done.stdout)["diagnostics"]:
        problem = Problem(d["line"], d["column"], d["severity"], d["code"], d["message"])
        found.setdefault(Path(d["path"]), []).append(problem)
    return {path: sorted(problems) for path, problems in found.items()}


def code_point_column(line_text: str, units: int, encoding: str) -> int:
    """The 1-based code point column of a position `units` into the line."""
    if encoding == "utf-32":
        return units + 1
    size = 2 if encoding == "utf-16" else 1
    counted = 0
    for index, char in enumerate(line_text):
        if counted >= units:
            return index + 1
        step = len(char.encode("utf-16-le")) // 2 if size == 2 else len(char.encode())
        counted += step
    return len(line_text) + 1


def as_problems(text: str, diagnostics: list[Any], encoding: str = "utf-16") -> list[Problem]:
    """LSP diagnostics (objects or JSON) of a document holding `text`, as `Problem`s."""
    lines = text.splitlines()
    found = []
    for d in diagnostics:
        d = d if isinstance(d, dict) else _as_dict(d)
        start = d["range"]["start"]
        line_text = lines[start["line"]] if start["line"] < len(lines) else ""
        column = code_point_column(line_text, start["character"], encoding)
        severity = SEVERITY_NAMES[int(d["severity"])]
        found.append(Problem(start["line"] + 1, column, severity, d["code"], d["message"]))
    return sorted(found)


def _as_dict(diagnostic: Any) -> dict[str, Any]:
    start = diagnostic.range.start
    return {
        "range": {"start": {"line": start.line, "character": start.character}},
        "severity": diagnostic.severity,
        "code": diagnostic.code,
        "message": diagnostic.message,
    }
