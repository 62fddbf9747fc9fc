"""`mfcourse.toml`: parsing never fails; every problem is data with a location."""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from mfls.text.lines import line_column, nth_line_start
from mfls.workspace.catalog import EN, say
from mfls.workspace.diagnostic_registry import DEFAULT_SEVERITIES, OFF, SEVERITY_NAMES
from mfls.workspace.hosts import HOST_NAMES

if TYPE_CHECKING:
    from mfls.workspace.course_layout import CourseLayout

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

COURSE_FILE: Final = "mfcourse.toml"
MARKDOWN_SUFFIXES: Final = (".md", ".markdown", ".mdflow")
"""Files with these suffixes (in any case) are read as MarkdownFlow documents."""
DEFAULT_LESSONS: Final = tuple(f"**/*{suffix}" for suffix in MARKDOWN_SUFFIXES)

CURRENT: Final = "current"
MARKDOWN_FLOW_04: Final = "markdown-flow-0.4"
MARKDOWN_FLOW_03: Final = "markdown-flow-0.3"
MARKDOWN_FLOW_034: Final = "markdown-flow-0.3.4"
TARGETS: Final = (CURRENT, MARKDOWN_FLOW_04, MARKDOWN_FLOW_03, MARKDOWN_FLOW_034)
"""What a course's documents are checked against: the memory syntax as mfls reads it,
or a released markdown-flow (which binds an answer only with `%{{key}}`), each modelled
on the one release tests/hosts checks: `markdown-flow-0.4` on 0.4.2, `markdown-flow-0.3`
on 0.3.1, `markdown-flow-0.3.4` on 0.3.4 (0.3.1's reading of markers plus the delimiter
escapes inside interactions)."""
PAGES: Final = ("remark-flow-0.1.6", "remark-flow-1.0.0-alpha.7")
"""The learner page versions a course on AI-Shifu may name in `page`: each remark-flow
release tests/hosts runs in Node (`mfls.workspace.learner_page` models them)."""
MARKDOWN_FLOW_03_READERS: Final = frozenset({MARKDOWN_FLOW_03, MARKDOWN_FLOW_034})
"""The targets whose marker reader is 0.3's regex (a binding only right after `?[`)."""
# The runtime a host runs when the course names no target: AI-Shifu's production runs
# markdown-flow 0.3.4 (docs/guide/courses-and-hosts.md, "Compatibility target"), where
# `?[{{ key }} ...]` saves nothing.
_HOST_TARGETS: Final = {"ai-shifu": MARKDOWN_FLOW_034}


def default_target(host: str) -> str:
    return _HOST_TARGETS.get(host, CURRENT)


class CourseConfig(NamedTuple):
    name: str | None = None
    host: str = "generic"
    lessons: tuple[str, ...] = DEFAULT_LESSONS
    references: tuple[str, ...] = ()
    system_keys: tuple[str, ...] = ()
    severities: Mapping[str, str] = MappingProxyType({})
    # None: the host's default (default_target).
    target: str | None = None
    # The learner page versions checked (`mfls.workspace.learner_page`); None: every one.
    page: tuple[str, ...] | None = None
    # An AI-Shifu course folder (`mfls.workspace.course_creator`): its layout.
    layout: CourseLayout | None = None
    # The course file's text as the workspace read it (None: none, or unreadable).
    text: str | None = None

    @property
    def runtime_target(self) -> str:
        """The target in force: the course's own, else its host's default."""
        return self.target if self.target is not None else default_target(self.host)


LIMIT_PROBLEMS: Final = frozenset({"config.document-limit", "config.file-limit"})
"""Problems of the course, not of its file, reported on the course file: a course over
a limit of mfls (`Workspace` adds them)."""


class ConfigProblem(NamedTuple):
    """A problem in the course file. `start`/`end` are code point offsets in its text,
    `line`/`column` 0-based. `fatal` means the whole file was ignored. `message` is the
    English text of message `id` of the catalog (`mfls.workspace.catalog`) with the
    arguments `args`."""

    message: str
    start: int
    end: int
    line: int
    column: int
    fatal: bool = False
    id: str = ""
    args: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(
        cls,
        message_id: str,
        args: Mapping[str, str],
        span: tuple[int, int, int, int],
        fatal: bool = False,
    ) -> ConfigProblem:
        text = say(EN, message_id, **args)
        return cls(text, *span, fatal=fatal, id=message_id, args=tuple(args.items()))

    @property
    def over_limit(self) -> bool:
        """A course over a limit (`LIMIT_PROBLEMS`): an error, the course incomplete."""
        return self.id in LIMIT_PROBLEMS


_TOP_FIELDS: Final = (
    "name",
    "host",
    "target",
    "page",
    "lessons",
    "references",
    "system-keys",
    "diagnostics",
)
_ERROR_AT: Final = re.compile(r"\(at line (\d+), column (\d+)\)$")
_ERROR_AT_END: Final = re.compile(r"\(at end of document\)$")


def parse_course_config(text: str) -> tuple[CourseConfig, list[ConfigProblem]]:
    body = text[1:] if text.startswith("\ufeff") else text
    shift = len(text) - len(body)
    try:
        data = tomllib.loads(body)
    except tomllib.TOMLDecodeError as error:
        return CourseConfig(), [_syntax_problem(text, shift, str(error), body)]
    except RecursionError:  # tomllib recurses once per level of nesting
        return CourseConfig(), [_syntax_problem(text, shift, "nested too deep to read")]
    return _read_fields(text, data)


def _syntax_problem(text: str, shift: int, message: str, body: str = "") -> ConfigProblem:
    at = _ERROR_AT.search(message)
    end = None
    if at:
        line, column = int(at.group(1)) - 1, int(at.group(2)) - 1
        offset = nth_line_start(text, line) + column + (shift if line == 0 else 0)
    elif _ERROR_AT_END.search(message):
        offset, end = _unfinished_statement(body)
        offset, end = offset + shift, end + shift
    else:
        offset = 0
    offset = min(offset, len(text))
    reason = _ERROR_AT.sub("", _ERROR_AT_END.sub("", message)).strip()
    line, column = line_column(text, offset)
    end = min(offset + 1, len(text)) if end is None or end <= offset else end
    return ConfigProblem.of(
        "config.invalid-toml", {"reason": reason}, (offset, end, line, column), fatal=True
    )


_UNFINISHED_TRIES: Final = 16
"""How many statement beginnings `_unfinished_statement` tries, from the last one."""
_STATEMENT: Final = re.compile(r"^[ \t]*(?:\[|[^\s=#\[][^=\n]*=)[^\n]*", re.MULTILINE)
"""A line that may begin a statement: a table header or `key =`."""


def _unfinished_statement(body: str) -> tuple[int, int]:
    """Where the statement begins that the TOML reader ran to the end of `body` to finish
    (an unclosed `[`, `{` or string): the last line that begins a statement and after
    whose whole lines before it read as TOML, as (start, end of its text). The end of
    `body` when none is found."""
    lines = list(_STATEMENT.finditer(body))
    for found in reversed(lines[-_UNFINISHED_TRIES:]):
        try:
            tomllib.loads(body[: found.start()])
        except tomllib.TOMLDecodeError:
            continue
        line = found.group()
        return found.start() + len(line) - len(line.lstrip()), found.start() + len(line.rstrip())
    return len(body), len(body)


def _read_fields(text: str, data: dict[str, Any]) -> tuple[CourseConfig, list[ConfigProblem]]:
    problems: list[ConfigProblem] = []

    def problem(message_id: str, at: str, table: str | None = None, **args: str) -> None:
        start, end = _locate_key(text, table, at)
        line, column = line_column(text, start)
        problems.append(ConfigProblem.of(message_id, args, (start, end, line, column)))

    for key in data:
        if key not in _TOP_FIELDS:
            known = ", ".join(f"`{k}`" for k in _TOP_FIELDS)
            problem("config.unknown-setting", key, key=key, known=known)
    values: dict[str, Any] = {}
    name = data.get("name")
    if name is not None:
        if isinstance(name, str):
            values["name"] = name
        else:
            problem("config.name-type", "name")
    for field, allowed in (("host", HOST_NAMES), ("target", TARGETS)):
        chosen = data.get(field)
        if chosen is None:
            continue
        if isinstance(chosen, str) and chosen in allowed:
            values[field] = chosen
        else:
            choices = ", ".join(repr(a) for a in allowed)
            problem(f"config.{field}-value", field, choices=choices)
    page = data.get("page")
    if page is not None:
        versions = [page] if isinstance(page, str) else page
        if isinstance(versions, list) and all(v in PAGES for v in versions):
            values["page"] = tuple(v for v in PAGES if v in versions)
        else:
            choices = ", ".join(f'"{v}"' for v in PAGES)
            problem("config.page-value", "page", choices=choices)
    for key, attribute in (
        ("lessons", "lessons"),
        ("references", "references"),
        ("system-keys", "system_keys"),
    ):
        raw = data.get(key)
        if raw is None:
            continue
        if isinstance(raw, list) and all(isinstance(item, str) for item in raw):
            items = tuple(item.strip() for item in raw if item.strip())
            values[attribute] = items
        else:
            problem("config.list-type", key, key=key)
    diagnostics = data.get("diagnostics")
    if diagnostics is not None:
        if isinstance(diagnostics, dict):
            values["severities"] = MappingProxyType(_read_severities(diagnostics, problem))
        else:
            problem("config.diagnostics-type", "diagnostics")
    return CourseConfig(**values), problems


def _read_severities(table: dict[str, Any], problem: Any) -> dict[str, str]:
    allowed = (*SEVERITY_NAMES, OFF)
    severities: dict[str, str] = {}
    for code, severity in table.items():
        if code not in DEFAULT_SEVERITIES:
            problem("config.unknown-code", code, "diagnostics", code=code)
        elif not isinstance(severity, str) or severity not in allowed:
            choices = ", ".join(f'"{s}"' for s in allowed)
            problem("config.severity-value", code, "diagnostics", code=code, choices=choices)
        else:
            severities[code] = severity
    return severities


_TABLE_HEADER: Final = re.compile(r"^\s*\[\s*([^\]]*?)\s*\]\s*(?:#.*)?$")


def _locate_key(text: str, table: str | None, key: str) -> tuple[int, int]:
    """The span of `key = ...` inside `[table]` (None: the top level); (0, 0) if not found."""
    escaped = re.escape(key)
    pattern = re.compile(rf"(\s*)({escaped}|\"{escaped}\"|'{escaped}')\s*=")
    current: str | None = None
    offset = 0
    for line in text.splitlines(keepends=True):
        header = _TABLE_HEADER.match(line)
        if header:
            current = header.group(1).strip("\"'")
        elif current == table:
            match = pattern.match(line)
            if match:
                return offset + match.start(2), offset + match.end(2)
        offset += len(line)
    if table is None:
        offset = 0
        for line in text.splitlines(keepends=True):
            header = _TABLE_HEADER.match(line)
            if header and header.group(1).strip("\"'") == key:
                start = offset + len(line) - len(line.lstrip())
                return start, offset + len(line.rstrip("\r\n"))
            offset += len(line)
    return 0, 0
