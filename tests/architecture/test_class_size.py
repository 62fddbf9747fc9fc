"""State of small owners: no class of mfls outside the scanner's parsers (`mfls/syntax`)
holds more than 25 methods or spans more than 300 lines (docs/architecture.md, "Who
holds what"). Read from the source with `ast`: a method is a `def` or `async def`
directly in the class body (properties and nested classes' methods included the first
way, not the second)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.architecture.arch_kit import PACKAGE

MAX_METHODS = 25
MAX_LINES = 300
EXEMPT = PACKAGE / "syntax"


def class_sizes(source: str, name: str) -> list[tuple[str, int, int]]:
    """(where, methods, lines) of every class in `source`, nested ones too."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            methods = sum(
                isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) for item in node.body
            )
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            found.append((f"{name}:{node.lineno} {node.name}", methods, lines))
    return found


def too_big(root: Path) -> list[str]:
    over = []
    for path in sorted(root.rglob("*.py")):
        if path.is_relative_to(EXEMPT):
            continue
        name = str(path.relative_to(root.parent))
        for where, methods, lines in class_sizes(path.read_text(encoding="utf-8"), name):
            if methods > MAX_METHODS or lines > MAX_LINES:
                over.append(f"{where}: {methods} methods, {lines} lines")
    return over


def test_no_class_outside_the_scanner_is_over_25_methods_or_300_lines() -> None:
    over = too_big(PACKAGE)
    assert not over, (
        f"split these by concern (at most {MAX_METHODS} methods, {MAX_LINES} lines): {over}"
    )


@pytest.mark.parametrize(
    ("methods", "body_lines", "caught"),
    [(25, 1, False), (26, 1, True), (1, 297, False), (1, 299, True)],
)
def test_the_measure_catches_a_class_just_over_either_limit(
    methods: int, body_lines: int, caught: bool, tmp_path: Path
) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    defs = "".join(f"    def m{k}(self) -> None:\n        pass\n" for k in range(methods))
    filler = "".join(f"    x{k} = {k}\n" for k in range(body_lines))
    (package / "big.py").write_text(f"class Big:\n{defs}{filler}", encoding="utf-8")
    assert bool(too_big(package)) is caught
