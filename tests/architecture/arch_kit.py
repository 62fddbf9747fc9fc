"""Shared by the architecture tests: the repository root, its config, and lint-imports."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = ROOT / "pyproject.toml"
PACKAGE = ROOT / "mfls"

_LINT_IMPORTS = "from importlinter.cli import lint_imports_command; lint_imports_command()"


def pyproject() -> dict[str, Any]:
    with PYPROJECT.open("rb") as f:
        return tomllib.load(f)


def contracts() -> list[dict[str, Any]]:
    return list(pyproject()["tool"]["importlinter"]["contracts"])


def lint_imports(root: Path, *contract_ids: str) -> subprocess.CompletedProcess[str]:
    """Runs lint-imports on the `mfls` package found in `root`, with `root`'s pyproject.toml."""
    command = [sys.executable, "-c", _LINT_IMPORTS, "--no-cache", "--no-logo"]
    for contract_id in contract_ids:
        command += ["--contract", contract_id]
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [*command, str(root / "pyproject.toml")],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def copy_package(destination: Path) -> Path:
    """Copies `mfls/` and the config that holds the contracts into `destination`."""
    shutil.copytree(PACKAGE, destination / "mfls", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(PYPROJECT, destination / "pyproject.toml")
    return destination
