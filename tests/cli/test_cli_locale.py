"""`mfls check` in the author's language (issue 12): `--locale`, else `LC_ALL`,
`LC_MESSAGES`, `LANG` (the first one set), as POSIX reads them."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from mfls.cli.language import chosen
from tests.kit.cli import mfls

LESSON = "?[{{ goal }} A | B]\n\nUse {{ goal }} and {{ topic }}.\n"
CHINESE = "没有任何课时提问“topic”，AI 可能读不到回答。"
ENGLISH = "No lesson asks “topic”, so the AI may lack the answer."


def check(root: Path, *args: str, **environment: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in {"LC_ALL", "LC_MESSAGES", "LANG"}}
    env.update(environment)
    done = mfls("check", "--format", "json", *args, str(root), env=env)
    assert done.returncode == 0, done.stderr
    [found] = json.loads(done.stdout)["diagnostics"]
    assert found["code"] == "unbound-reference"
    return str(found["message"])


def test_lang_and_locale_choose_the_language(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text(LESSON, encoding="utf-8")
    assert check(tmp_path).startswith(ENGLISH)
    assert check(tmp_path, LANG="zh_CN.UTF-8").startswith(CHINESE)
    assert check(tmp_path, "--locale", "en", LANG="zh_CN.UTF-8").startswith(ENGLISH)
    assert check(tmp_path, "--locale", "zh-CN", LANG="en_US.UTF-8").startswith(CHINESE)
    assert check(tmp_path, LC_ALL="C.UTF-8", LANG="zh_CN.UTF-8").startswith(ENGLISH)


@pytest.mark.parametrize(
    ("option", "environment", "language"),
    [
        (None, {}, "en"),
        ("auto", {"LANG": "zh_TW.UTF-8"}, "zh-CN"),
        ("auto", {"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh-CN"),
        ("auto", {"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "en"),
        ("auto", {"LC_ALL": "", "LANG": "zh_CN.GB18030"}, "zh-CN"),
        ("en", {"LC_ALL": "zh_CN.UTF-8"}, "en"),
        ("zh-CN", {"LANG": "C"}, "zh-CN"),
    ],
)
def test_the_option_then_the_environment(
    option: str | None, environment: dict[str, str], language: str
) -> None:
    assert chosen(option, environment) == language


def test_an_unknown_locale_is_refused(tmp_path: Path) -> None:
    done = mfls("check", "--locale", "fr", str(tmp_path))
    assert done.returncode == 2 and "--locale" in done.stderr
