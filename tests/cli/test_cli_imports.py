"""`mfls check`, `scan` and `rename` never load the LSP front end (pygls, lsprotocol)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

PROBE = """
import json, sys
from mfls.cli import main
try:
    status = main(sys.argv[1:])
except SystemExit as stop:
    status = stop.code
loaded = sorted(
    name for name in sys.modules
    if name.split(".")[0] in ("pygls", "lsprotocol") or name in ("mfls.server", "mfls.lsp")
)
sys.stderr.write("\\nLOADED " + json.dumps(loaded) + "\\n")
"""


def loaded_by(*argv: str, cwd: Path, prelude: str = "") -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", prelude + PROBE, *argv],
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=cwd,
        timeout=120,
    )
    last = done.stderr.rstrip("\n").rsplit("\n", 1)[-1]
    assert last.startswith("LOADED "), done.stderr
    return list(json.loads(last.removeprefix("LOADED ")))


@pytest.fixture
def course(tmp_path: Path) -> Path:
    (tmp_path / "mfcourse.toml").write_text('host = "ai-shifu"\n')
    (tmp_path / "a.md").write_text("?[{{ q }} A | B]\n\nUse {{ q }} and {{ }}.\n")
    return tmp_path


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "."],
        ["check", "--format", "json", "a.md"],
        ["scan", "--json", "a.md"],
        ["rename", "--course", ".", "q", "r", "--dry-run"],
    ],
)
def test_commands_other_than_serve_do_not_import_the_lsp_front_end(
    course: Path, argv: list[str]
) -> None:
    assert loaded_by(*argv, cwd=course) == []


def test_the_probe_would_see_the_front_end(course: Path) -> None:
    assert "pygls" in loaded_by("scan", "a.md", cwd=course, prelude="import pygls")
