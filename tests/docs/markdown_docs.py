"""The repository's Markdown documents as GitHub shows them: their headings' anchors, their
relative links, the commands of their fenced shell blocks and the cells of their tables.

Parsed with markdown-it-py (CommonMark with GitHub's tables), so that a link in a code
span or a `#` line in a code block is what it is on GitHub: no link, no heading. Each
`*_problems` function takes the documents as `{path: text}` and returns one line per
problem, so the tests can plant a broken document beside the real ones.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import shlex
import unicodedata
from collections.abc import Iterator, Mapping
from pathlib import Path, PurePosixPath
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.token import Token

from mfls.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]

_MARKDOWN = MarkdownIt("commonmark").enable("table")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:|^//")
_HTML_TARGET = re.compile(r"""\b(?:href|src)\s*=\s*["']([^"']+)["']""")
_HTML_ANCHOR = re.compile(r"""\b(?:id|name)\s*=\s*["']([^"']+)["']""")
_LINE_ANCHOR = re.compile(r"^L(\d+)(?:-L(\d+))?$")
SHELL_FENCES = frozenset({"", "sh", "bash", "shell", "console"})


def documents() -> dict[str, str]:
    """README.md, every Markdown file of docs/, and the editors' READMEs, by repository path."""
    paths = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    paths += [ROOT / "editors" / "README.md", *sorted((ROOT / "editors").glob("*/README.md"))]
    return {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in paths}


def user_guide() -> dict[str, str]:
    """The documents a user reads: README.md and docs/guide/."""
    return {path: text for path, text in documents().items() if _in_guide(path)}


def _in_guide(path: str) -> bool:
    return path == "README.md" or path.startswith("docs/guide/")


def slug(heading: str) -> str:
    """GitHub's anchor of a heading's text (github-slugger): lower case, every character
    but letters, marks, digits, `_`, `-` and spaces dropped, spaces made `-`."""
    kept = (
        c
        for c in heading.lower()
        if c in " -_" or unicodedata.category(c)[0] in "LMN" or unicodedata.category(c) == "Pc"
    )
    return "".join(kept).replace(" ", "-")


def _walk(tokens: list[Token]) -> Iterator[Token]:
    for token in tokens:
        yield token
        if token.children:
            yield from _walk(token.children)


def _text(inline: Token) -> str:
    return "".join(
        child.content
        for child in _walk(inline.children or [])
        if child.type in ("text", "code_inline")
    )


def anchors(text: str) -> set[str]:
    """Every `#anchor` of a document: its headings' slugs (a repeated one numbered `-1`,
    `-2`, ... as GitHub does) and the `id`/`name` of its HTML."""
    tokens = _MARKDOWN.parse(text)
    found: set[str] = set()
    seen: dict[str, int] = {}
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            base = slug(_text(tokens[i + 1]))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        if token.type in ("html_block", "html_inline") or token.type == "inline":
            for html in _walk([token]):
                if html.type in ("html_block", "html_inline"):
                    found.update(_HTML_ANCHOR.findall(html.content))
    return found


def links(text: str) -> list[str]:
    """Every link and image target of a document, in order (HTML `href`/`src` included)."""
    found: list[str] = []
    for token in _walk(_MARKDOWN.parse(text)):
        if token.type == "link_open":
            found.append(str(token.attrs["href"]))
        elif token.type == "image":
            found.append(str(token.attrs["src"]))
        elif token.type in ("html_block", "html_inline"):
            found.extend(_HTML_TARGET.findall(token.content))
    return found


def link_problems(docs: Mapping[str, str], root: Path = ROOT) -> list[str]:
    """Each relative link of `docs` that leads nowhere: a missing file, a file outside the
    repository, an `#anchor` no heading of the target makes, a line past a file's end."""
    problems: list[str] = []
    own_anchors = {path: anchors(text) for path, text in docs.items()}
    for path, text in docs.items():
        for target in links(text):
            if _SCHEME.match(target):
                continue
            where, _, anchor = target.partition("#")
            problem = _resolve(path, unquote(where), unquote(anchor), root, own_anchors)
            if problem:
                problems.append(f"{path}: ({target}) {problem}")
    return problems


def _resolve(
    path: str, where: str, anchor: str, root: Path, known: Mapping[str, set[str]]
) -> str | None:
    if where:
        base = PurePosixPath(path).parent
        joined = PurePosixPath(where.lstrip("/")) if where.startswith("/") else base / where
        target = (root / joined).resolve()
        if not target.is_relative_to(root.resolve()):
            return "leaves the repository"
        if not target.exists():
            return "no such file"
        name = target.relative_to(root.resolve()).as_posix()
    else:
        name, target = path, root / path
    if not anchor:
        return None
    if name in known:
        return None if anchor in known[name] else f"no heading makes #{anchor}"
    if target.suffix == ".md":
        text = target.read_text(encoding="utf-8")
        return None if anchor in anchors(text) else f"no heading makes #{anchor}"
    lines = _LINE_ANCHOR.match(anchor)
    if lines and target.is_file():
        last = int(lines.group(2) or lines.group(1))
        count = len(target.read_text(encoding="utf-8", errors="replace").splitlines())
        return None if last <= count else f"the file has {count} lines"
    return f"#{anchor} is no anchor of a {target.suffix or 'folder'}"


def fenced_commands(text: str) -> list[str]:
    """The `mfls` commands of a document's shell blocks (` ```sh `, `bash`, `console` or
    no language), one string each: continuation lines joined, a `$ ` prompt, comments,
    environment assignments and other commands of the line (`&&`, `;`, `|`) left out."""
    found: list[str] = []
    for token in _MARKDOWN.parse(text):
        if token.type != "fence" or token.info.strip().split(" ")[0] not in SHELL_FENCES:
            continue
        for line in token.content.replace("\\\n", " ").splitlines():
            line = line.strip().removeprefix("$ ")
            lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
            lexer.whitespace_split = True
            try:
                words = list(lexer)
            except ValueError:
                continue  # not shell: output or a listing
            for command in _commands(words):
                found.append(shlex.join(command))
    return found


def _commands(words: list[str]) -> Iterator[list[str]]:
    command: list[str] = []
    for word in [*words, ";"]:
        if word in ("&&", "||", ";", "|", "&"):
            while command and re.match(r"^[A-Z_][A-Z0-9_]*=", command[0]):
                command.pop(0)
            if command[:1] == ["mfls"]:
                yield command
            elif command[:3] in (["python3", "-m", "mfls"], ["python", "-m", "mfls"]):
                yield ["mfls", *command[3:]]
            command = []
        else:
            command.append(word)


def command_problem(command: str, parser: argparse.ArgumentParser | None = None) -> str | None:
    """Why `mfls ...` is no command mfls's own parser takes (its error), or None."""
    parser = parser or build_parser()
    args = shlex.split(command)[1:]
    errors = io.StringIO()
    with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
        try:
            parser.parse_args(args)
        except SystemExit as leaving:
            if leaving.code not in (0, None):
                return errors.getvalue().strip().splitlines()[-1]
    return None


def command_problems(docs: Mapping[str, str]) -> list[str]:
    parser = build_parser()
    problems: list[str] = []
    for path, text in docs.items():
        for command in fenced_commands(text):
            problem = command_problem(command, parser)
            if problem:
                problems.append(f"{path}: `{command}`: {problem}")
    return problems


def inline_commands(text: str) -> list[str]:
    """The code spans of a document that name an mfls subcommand: `mfls check PATH...`."""
    spans = (t.content for t in _walk(_MARKDOWN.parse(text)) if t.type == "code_inline")
    return [span for span in spans if re.match(r"^mfls [a-z]", span)]


def flag_problems(docs: Mapping[str, str]) -> list[str]:
    """Each option a code span gives an mfls subcommand that the subcommand does not have
    (placeholders like `[--force]` or `--locale en|zh-CN` allowed), and each span naming
    no subcommand at all."""
    parser = build_parser()
    actions = parser._subparsers._group_actions if parser._subparsers else []
    commands: dict[str, argparse.ArgumentParser] = {}
    for action in actions:
        commands.update(getattr(action, "choices", None) or {})
    problems: list[str] = []
    for path, text in docs.items():
        for span in inline_commands(text):
            name, *rest = span.split()[1:]
            sub = commands.get(name)
            if sub is None:
                problems.append(f"{path}: `{span}`: no command {name!r}")
                continue
            for word in rest:
                option = re.match(r"^[\[(]?(--?[A-Za-z][\w-]*)", word)
                if option and option.group(1) not in sub._option_string_actions:
                    problems.append(f"{path}: `{span}`: {name} has no option {option.group(1)}")
    return problems


def table_cells(text: str) -> Iterator[str]:
    """The text of every cell of every table of a document."""
    tokens = _MARKDOWN.parse(text)
    for i, token in enumerate(tokens):
        if token.type in ("td_open", "th_open"):
            yield tokens[i + 1].content


def long_cells(docs: Mapping[str, str], most: int) -> list[str]:
    """Each table cell of more than `most` words."""
    found: list[str] = []
    for path, text in docs.items():
        for cell in table_cells(text):
            if len(cell.split()) > most:
                found.append(f"{path}: {len(cell.split())} words: {cell[:60]}...")
    return found


def ragged_rows(docs: Mapping[str, str]) -> list[str]:
    """Each table row whose cells are not as many as its header's: on GitHub a `|` inside a
    code span still splits a cell unless written `\\|`, and the cells past the header's
    count are dropped."""
    found: list[str] = []
    for path, text in docs.items():
        header: int | None = None
        fenced = False
        for number, line in enumerate(text.splitlines(), 1):
            if line.startswith("```"):
                fenced = not fenced
            if fenced or not line.startswith("|"):
                header = None
                continue
            cells = len(re.split(r"(?<!\\)\|", line.strip())) - 2
            if header is None:
                header = cells
            elif cells != header:
                found.append(f"{path}:{number}: {cells} cells under a header of {header}")
    return found
