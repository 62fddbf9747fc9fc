"""The docs' tables of diagnostic codes are the registry's: each of its codes once, with
its default severity."""

from __future__ import annotations

import re

import pytest
from arch_kit import ROOT

from mfls.workspace.diagnostic_registry import REGISTRY

_ROW = re.compile(r"^\| `([a-z-]+)` \| ([a-z]+)")


def _table(doc: str) -> list[tuple[str, str]]:
    """The rows of the table under `| code | default...` (to its first blank line)."""
    lines = (ROOT / doc).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| code | default"))
    rows: list[tuple[str, str]] = []
    for line in lines[start + 2 :]:
        if not line.strip():
            break
        found = _ROW.match(line)
        assert found is not None, line
        rows.append((found.group(1), found.group(2)))
    return rows


@pytest.mark.parametrize("doc", ["docs/guide/diagnostics.md", "docs/architecture.md"])
def test_the_docs_code_table_is_the_registry(doc: str) -> None:
    rows = _table(doc)
    assert len(rows) == len(set(rows)) == len(REGISTRY)
    assert dict(rows) == {info.code: info.severity for info in REGISTRY}
