"""The `mfls-check` hook of `.pre-commit-hooks.yaml`, run by `pre-commit try-repo` on a
sample repository, without network.

pre-commit builds the hook's virtualenv and runs `pip install .` on a clone of this
checkout. Offline that works with: no index (`PIP_NO_INDEX`), no build isolation (the
venv's own setuptools, seeded by virtualenv from the wheels it bundles, builds mfls), and
a venv that sees this interpreter's site-packages, where pygls and lsprotocol are
installed (`VIRTUALENV_SYSTEM_SITE_PACKAGES`). The build is pure (`MFLS_BUILD=pure`): the
compiled build is tested in tests/cli/test_cli_builds.py.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def run(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, encoding="utf-8", timeout=300
    )


def test_the_hook_definition() -> None:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert (hook["id"], hook["entry"], hook["language"]) == ("mfls-check", "mfls check", "python")
    files = re.compile(hook["files"])
    for name in ("a.md", "l/b.markdown", "c.mdflow", "mfcourse.toml", "x/mfcourse.toml"):
        assert files.search(name), name
    for name in ("a.txt", "notmfcourse.toml", "pyproject.toml", "a.md.bak"):
        assert not files.search(name), name


def test_try_repo_offline_reports_the_course_problems(tmp_path: Path) -> None:
    sample = tmp_path / "sample"
    sample.mkdir()
    git = ("git", "-c", "user.name=t", "-c", "user.email=t@example.invalid")
    run(*git, "init", "-q", cwd=sample)
    (sample / "mfcourse.toml").write_text('lessons = ["*.md"]\n')
    (sample / "a.md").write_text("?[%{{ name }} ...your name]\n\nHello {{ }}\n")
    (sample / "b.md").write_text("Hello {{ name }}\n")  # clean: bound in a.md
    (sample / "notes.txt").write_text("{{ }}\n")
    run(*git, "add", ".", cwd=sample)
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "PIP_NO_INDEX": "1",
        "PIP_NO_BUILD_ISOLATION": "0",  # pip reads the `no-` flag's variable inverted
        "VIRTUALENV_SYSTEM_SITE_PACKAGES": "1",
        "VIRTUALENV_SETUPTOOLS": "bundle",
        "PYTHONPATH": "",  # the hook must run the mfls pip installed in its venv
        # Built pure: compiling the scanner again takes minutes, and the hook runs either.
        "MFLS_BUILD": "pure",
    }
    env.pop("PIP_FIND_LINKS", None)
    pre_commit = (sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "mfls-check")
    done = run(*pre_commit, "--all-files", cwd=sample, env=env)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "a.md:3:7: error marker-empty" in done.stdout
    assert "notes.txt" not in done.stdout
    assert "b.md" not in done.stdout
