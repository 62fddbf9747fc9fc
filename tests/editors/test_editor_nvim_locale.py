"""The Neovim plugin's `locale` option (issue 12), in Debian's headless Neovim against the
real server: `"zh-CN"` gives Chinese diagnostics, `"en"` English whatever the environment,
and without the option the environment's `LANG` decides (Neovim itself sends no locale)."""

from __future__ import annotations

from pathlib import Path

import pytest
from editor_harness import (
    checks_of,
    driver_env,
    nvim_command,
    require_executable,
    run_driver,
)

DRIVER = Path(__file__).with_name("nvim_locale.lua")
LESSON = "?[{{ goal }} A | B]\n\nUse {{ goal }} and {{ topic }}.\n"


@pytest.mark.parametrize(
    ("option", "lang", "start"),
    [
        ("zh-CN", "en_US.UTF-8", "没有任何课时提问“topic”"),
        ("en", "zh_CN.UTF-8", "No lesson asks “topic”"),
        ("", "zh_CN.UTF-8", "没有任何课时提问“topic”"),
        ("", "C.UTF-8", "No lesson asks “topic”"),
    ],
)
def test_the_locale_option_and_the_environment(
    tmp_path: Path, option: str, lang: str, start: str
) -> None:
    nvim = require_executable("nvim")
    course = tmp_path / "course"
    course.mkdir()
    (course / "mfcourse.toml").write_text('name = "c"\n', encoding="utf-8")
    (course / "a.md").write_text(LESSON, encoding="utf-8")
    results = tmp_path / "results.json"
    extra = {"MFLS_COURSE": str(course), "MFLS_LOCALE": option, "MFLS_EXPECT": start}
    env = driver_env(tmp_path / "home", results, {**extra, "LANG": lang})
    env.pop("LC_ALL", None)
    env.pop("LC_MESSAGES", None)
    data, _ = run_driver(nvim_command(nvim, DRIVER), results, env=env, cwd=tmp_path, timeout=60)
    checks = checks_of(data)
    assert "main" not in checks, checks["main"].detail
    found = checks["diagnostic"]
    assert found.ok, found.detail
