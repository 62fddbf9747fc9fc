"""docs/architecture.md keeps no file list: every module of mfls says what it holds in its
opening docstring instead."""

from __future__ import annotations

import ast
from pathlib import Path

MFLS = Path(__file__).resolve().parents[2] / "mfls"


def test_every_module_opens_with_a_docstring() -> None:
    missing = [
        str(path.relative_to(MFLS.parent))
        for path in sorted(MFLS.rglob("*.py"))
        if path.read_text(encoding="utf-8").strip()
        and ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) is None
    ]
    assert not missing, f"modules without a docstring saying what they hold: {missing}"
