"""The lsp/mfls.lua proposed to nvim-lspconfig (packaging/nvim-lspconfig), as that project
asks for one (CONTRIBUTING.md: a `---@brief` doc block, `---@type vim.lsp.Config`, `cmd`,
`filetypes` and the root) and as Neovim 0.11.4 runs it without the plugin: loaded with
`dofile`, given to `vim.lsp.config`, enabled; the server it starts on a lesson finds the
course and gives the problems `mfls check` gives. The same file's roots are checked against
the plugin's in test_editor_nvim_root.py."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

from editor_harness import (
    REPO,
    checks_of,
    copy_course,
    current_nvim,
    isolated_env,
    path_without_mfls,
    run_driver,
)

from tests.kit.cli import mfls

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CONFIG = REPO / "packaging" / "nvim-lspconfig" / "lsp" / "mfls.lua"
DRIVER = Path(__file__).with_name("nvim_lspconfig_file.lua")
LESSON = "lessons/03-practice.md"


def test_the_file_is_written_as_nvim_lspconfig_asks() -> None:
    text = CONFIG.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == "---@brief" and lines[1] == "---"
    brief = [line for line in lines[: lines.index("")] if line.startswith("---")]
    with (REPO / "pyproject.toml").open("rb") as file:
        repository = tomllib.load(file)["project"]["urls"]["Repository"]
    assert f"--- {repository}" in brief
    assert "---@type vim.lsp.Config\nreturn {" in text
    # Their .stylua.toml: 2 spaces, 120 columns, single quotes.
    assert max(len(line) for line in lines) <= 120
    assert "\t" not in text and '"' not in text.split("---@type")[1]


def test_neovim_runs_it_without_the_plugin(tmp_path: Path) -> None:
    course = copy_course(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    launcher = bin_dir / "mfls"
    launcher.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m mfls "$@"\n')
    launcher.chmod(0o755)
    results = tmp_path / "results.json"
    env = isolated_env(
        tmp_path / "home",
        {
            "MFLS_LSPCONFIG": str(CONFIG),
            "MFLS_COURSE": str(course),
            "MFLS_RESULTS": str(results),
        },
    )
    env["PATH"] = os.pathsep.join([str(bin_dir), path_without_mfls(env.get("PATH", ""))])
    command = [current_nvim(), "--headless", "--clean", "-n", "-c", f"luafile {DRIVER}"]
    data, _ = run_driver(command, results, env=env, cwd=course, timeout=90)
    checks = checks_of(data)
    assert [f"{c.name}: {c.detail}" for c in checks.values() if not c.ok] == []
    shown = sorted((d["line"], d["column"], d["code"]) for d in data["diagnostics"])
    done = mfls("check", "--format", "json", ".", cwd=course)
    expected = sorted(
        (p["line"], p["column"], p["code"])
        for p in json.loads(done.stdout)["diagnostics"]
        if p["path"] == LESSON
    )
    assert shown == expected
