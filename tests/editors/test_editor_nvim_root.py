"""The Neovim plugin's root rule (setup()'s and lsp/mfls.lua's, the server's own: the
nearest course file or AI-Shifu course folder, else .git, else the file's folder) and
*.mdflow filetype, in headless Neovim 0.7.2 (Debian's) and 0.11.4."""

from __future__ import annotations

from pathlib import Path

import pytest
from editor_harness import (
    REPO,
    Check,
    checks_of,
    driver_env,
    nvim_command,
    run_driver,
)
from tmux_nvim import NVIMS

DRIVER = Path(__file__).with_name("nvim_root.lua")


@pytest.fixture(scope="module", params=sorted(NVIMS))
def root_checks(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Check]:
    nvim = NVIMS[request.param]()
    work = tmp_path_factory.mktemp("nvim-root")
    tree = work / "tree"
    (tree / "repo" / ".git").mkdir(parents=True)
    (tree / "repo" / "course" / "lessons").mkdir(parents=True)
    (tree / "repo" / "course" / "mfcourse.toml").write_text('name = "c"\n', encoding="utf-8")
    (tree / "repo" / "notes").mkdir()
    for folder, landmark in [("shifu", "structure.json"), ("synced", ".shifu-sync.json")]:
        (tree / "repo" / folder / "lessons").mkdir(parents=True)
        (tree / "repo" / folder / landmark).write_text("{}\n", encoding="utf-8")
    (tree / "repo" / "course" / "inner" / "lessons").mkdir(parents=True)
    (tree / "repo" / "course" / "inner" / "structure.json").write_text("{}\n", encoding="utf-8")
    (tree / "repo" / "loose-json" / "notes").mkdir(parents=True)
    (tree / "repo" / "loose-json" / "structure.json").write_text("{}\n", encoding="utf-8")
    (tree / "loose").mkdir()
    (tree / "loose" / "d.mdflow").write_text("Use {{ key }}.\n", encoding="utf-8")
    results = work / "results.json"
    lspconfig = REPO / "packaging" / "nvim-lspconfig" / "lsp" / "mfls.lua"
    extra = {"MFLS_LSPCONFIG": str(lspconfig), "MFLS_TREE": str(tree)}
    env = driver_env(work / "home", results, extra)
    data, _ = run_driver(nvim_command(nvim, DRIVER), results, env=env, cwd=work, timeout=60)
    checks = checks_of(data)
    assert "main" not in checks, checks["main"].detail
    return checks


ROOTS = [
    "course file wins over .git",
    ".git when there is no course file",
    "the file's folder otherwise",
    "an AI-Shifu course folder wins over .git",
    ".shifu-sync.json beside lessons/ too",
    "structure.json without lessons/ is no course",
    "the nearer of a course file and a course folder",
]


@pytest.mark.parametrize(
    "name",
    [
        *ROOTS,
        *(f"{name} (lsp/mfls.lua)" for name in ROOTS),
        "lsp/mfls.lua's server and filetypes",
        "mdflow filetype",
    ],
)
def test_root_and_filetype(root_checks: dict[str, Check], name: str) -> None:
    check = root_checks[name]
    assert check.ok, f"{name}: {check.detail}"


def test_nvim_lspconfigs_file_finds_the_same_roots(
    root_checks: dict[str, Check], request: pytest.FixtureRequest
) -> None:
    """packaging/nvim-lspconfig/lsp/mfls.lua, loaded with dofile as Neovim loads it."""
    if "0.11" not in request.node.callspec.id:
        pytest.skip("the file nvim-lspconfig would hold is for Neovim 0.11 and later")
    checks = {name: root_checks[f"{name} (nvim-lspconfig)"] for name in ROOTS}
    assert [f"{name}: {c.detail}" for name, c in checks.items() if not c.ok] == []
