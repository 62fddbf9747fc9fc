"""ruff finds nothing, and the pre-commit hooks run the same checks as this folder."""

from __future__ import annotations

import subprocess
import sys

import pytest
import yaml  # pre-commit's own dependency
from arch_kit import ROOT

HOOKS = ("ruff", "ruff-format", "mypy", "import-linter")


def _run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("command", [("check", "."), ("format", "--check", ".")])
def test_ruff_is_clean(command: tuple[str, ...]) -> None:
    result = _run("ruff", *command)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_pre_commit_config_is_valid() -> None:
    result = _run("pre_commit", "validate-config", ".pre-commit-config.yaml")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_hooks_use_the_installed_tools() -> None:
    """Local `system` hooks: pre-commit downloads nothing, so they run offline too."""
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = {
        hook["id"]: (repo["repo"], hook["language"])
        for repo in config["repos"]
        for hook in repo["hooks"]
    }
    assert hooks == dict.fromkeys(HOOKS, ("local", "system"))
