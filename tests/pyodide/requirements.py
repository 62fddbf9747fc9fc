"""Prints what the handler tests under Pyodide install, one requirement a line, as
pyproject.toml pins it: mfls's dependencies and, of its `test` extra, pytest and the
plugins the test modules import (pytest-lsp, which imports pytest-asyncio)."""

from __future__ import annotations

from pathlib import Path

import tomllib
from packaging.requirements import Requirement

TEST_PACKAGES = {"pytest", "pytest-asyncio", "pytest-lsp"}


def requirements() -> list[str]:
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    for line in project["optional-dependencies"]["test"]:
        if Requirement(line).name in TEST_PACKAGES:
            wanted.append(line)
    return wanted


if __name__ == "__main__":
    print("\n".join(requirements()))
