"""The Neovim plugin's root rule and *.mdflow filetype, in Debian's headless Neovim."""

from __future__ import annotations

from pathlib import Path

import pytest
from editor_harness import (
    EDITORS,
    Check,
    isolated_env,
    read_checks,
    run_bounded,
    system_nvim,
)

DRIVER = Path(__file__).with_name("nvim_root.lua")


@pytest.fixture(scope="module")
def root_checks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Check]:
    nvim = system_nvim()
    work = tmp_path_factory.mktemp("nvim-root")
    tree = work / "tree"
    (tree / "repo" / ".git").mkdir(parents=True)
    (tree / "repo" / "course" / "lessons").mkdir(parents=True)
    (tree / "repo" / "course" / "mfcourse.toml").write_text('name = "c"\n', encoding="utf-8")
    (tree / "repo" / "notes").mkdir()
    (tree / "loose").mkdir()
    (tree / "loose" / "d.mdflow").write_text("Use {{ key }}.\n", encoding="utf-8")
    results = work / "results.json"
    env = isolated_env(
        work / "home",
        {
            "MFLS_PLUGIN": str(EDITORS / "nvim"),
            "MFLS_TREE": str(tree),
            "MFLS_RESULTS": str(results),
        },
    )
    finished = run_bounded(
        [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {DRIVER}"],
        env=env,
        cwd=work,
        timeout=60,
    )
    if not results.exists():
        pytest.fail(f"nvim exited {finished.returncode} without results: {finished.stderr[-2000:]}")
    checks = read_checks(results)
    assert "main" not in checks, checks["main"].detail
    return checks


@pytest.mark.parametrize(
    "name",
    [
        "course file wins over .git",
        ".git when there is no course file",
        "the file's folder otherwise",
        "mdflow filetype",
    ],
)
def test_root_and_filetype(root_checks: dict[str, Check], name: str) -> None:
    check = root_checks[name]
    assert check.ok, f"{name}: {check.detail}"
