"""mypy finds no error in mfls/, with the checks on, and every silenced error says why.

The speed work compiles mfls with mypyc, which trusts these annotations.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest
from arch_kit import PACKAGE, PYPROJECT, ROOT, pyproject

IGNORE = re.compile(r"#\s*type:\s*ignore\b(?P<codes>\[[^\]]*\])?(?P<rest>.*)")
REASON = re.compile(r"#\s*\w+\W+\w+")


def test_mypy_finds_no_error(tmp_path: Path) -> None:
    # From the root, so that the config's `files` decides what is checked. In its own
    # process: in this one, mypy's million objects would stay alive, and every later
    # collection of the test session would walk them (a second each).
    config = ["--config-file", str(PYPROJECT), "--cache-dir", str(tmp_path / "mypy")]
    done = subprocess.run(
        [sys.executable, "-m", "mypy", *config],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=280,  # within pytest-timeout's 300 s, so that mypy's output is shown
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_mypy_config_keeps_the_checks_on() -> None:
    config = pyproject()["tool"]["mypy"]
    assert config["files"] == ["mfls"]
    assert config["check_untyped_defs"] is True
    assert "ignore_errors" not in config
    assert "ignore_missing_imports" not in config
    for override in config.get("overrides", []):
        assert "ignore_errors" not in override, override


def _type_ignores(path: Path) -> list[tuple[int, str, str]]:
    """(line, the ignore comment, the comment on the line above) for each `# type: ignore`."""
    text = path.read_text(encoding="utf-8")
    comments: dict[int, str] = {}
    code_lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string
        elif token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            code_lines.add(token.start[0])
    return [
        (line, comment, comments.get(line - 1, "") if line - 1 not in code_lines else "")
        for line, comment in sorted(comments.items())
        if IGNORE.search(comment)
    ]


def _explained(comment: str, above: str) -> bool:
    match = IGNORE.search(comment)
    if match is None or not (match["codes"] or "").strip("[] "):
        return False
    return bool(REASON.search(match["rest"]) or REASON.search(above))


def test_every_type_ignore_names_its_code_and_its_reason() -> None:
    """`# type: ignore[code]  # why`, or the why in a comment on the line just above."""
    unexplained = [
        f"{path.relative_to(ROOT)}:{line}: {comment}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line, comment, above in _type_ignores(path)
        if not _explained(comment, above)
    ]
    assert unexplained == [], "\n".join(unexplained)


@pytest.mark.parametrize(
    ("source", "accepted"),
    [
        ("x = f()  # type: ignore[attr-defined]  # pygls sets it at run time\n", True),
        ("# cattrs builds the class at run time\nx = f()  # type: ignore[misc]\n", True),
        ("x = f()  # type: ignore[attr-defined]\n", False),
        ("x = f()  # type: ignore  # no code given\n", False),
        ("y = 1  # an unrelated comment\nx = f()  # type: ignore[misc]\n", False),
    ],
)
def test_the_reason_check_reads_comments(tmp_path: Path, source: str, accepted: bool) -> None:
    path = tmp_path / "m.py"
    path.write_text(source, encoding="utf-8")
    ((_, comment, above),) = _type_ignores(path)
    assert _explained(comment, above) is accepted
