"""Line starts and line numbers are computed in `mfls/text` only (`lines`, `line_index`,
`places`): everything else calls them, so that the line endings (LF, CRLF, a lone CR) and
the rule for an offset between CR and LF are written once for the text side.

Found in the source by its syntax tree: a backward search for a line ending
(`text.rfind("\\n", ...)`: where a line starts) or a count of line endings over a range
(`text.count("\\n", start, end)`: a line number). The scanner (`mfls/syntax`) reads lines
as it parses them, in compiled code, and stays outside the rule.
"""

from __future__ import annotations

import ast

from arch_kit import PACKAGE

EXEMPT = (PACKAGE / "text", PACKAGE / "syntax")
LINE_ENDINGS = frozenset({"\n", "\r", "\r\n"})


def violations(source: str, name: str) -> list[str]:
    found: list[str] = []
    for node in ast.walk(ast.parse(source, name)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        method = node.func.attr
        first = node.args[0] if node.args else None
        ending = isinstance(first, ast.Constant) and first.value in LINE_ENDINGS
        at = f"{name}:{node.lineno}"
        if ending and method == "rfind":
            found.append(f"{at}: a line start computed outside mfls/text (lines.line_start)")
        elif ending and method == "count" and len(node.args) >= 2:
            found.append(f"{at}: a line number computed outside mfls/text (lines.line_breaks)")
    return found


def test_line_starts_and_numbers_are_computed_in_text_only() -> None:
    found: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if not any(path.is_relative_to(folder) for folder in EXEMPT):
            name = str(path.relative_to(PACKAGE.parent))
            found.extend(violations(path.read_text(encoding="utf-8"), name))
    assert found == []


def test_the_check_finds_each_kind() -> None:
    planted = (
        "def column(text, offset):\n"
        "    start = max(text.rfind('\\n', 0, offset), text.rfind('\\r', 0, offset)) + 1\n"
        "    line = text.count('\\n', 0, offset)\n"
        "    words = text.count('\\n')  # a whole text's count: not a position\n"
        "    return line, offset - start\n"
    )
    found = sorted(violations(planted, "planted.py"))
    assert [line.split(": ", 1)[0] for line in found] == ["planted.py:2"] * 2 + ["planted.py:3"]
