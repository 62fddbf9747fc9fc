"""`target` in mfcourse.toml: its values, its default per host, a bad value."""

from __future__ import annotations

import pytest

from mfls.workspace.config import TARGETS, parse_course_config


@pytest.mark.parametrize("target", TARGETS)
def test_each_target_is_read(target: str) -> None:
    config, problems = parse_course_config(f'host = "ai-shifu"\ntarget = "{target}"\n')
    assert problems == [] and config.target == target and config.runtime_target == target


@pytest.mark.parametrize(
    ("host", "default"),
    [("ai-shifu", "markdown-flow-0.3.4"), ("generic", "current"), ("playground", "current")],
)
def test_the_default_follows_the_host(host: str, default: str) -> None:
    config, problems = parse_course_config(f'host = "{host}"\n')
    assert problems == [] and config.target is None and config.runtime_target == default


@pytest.mark.parametrize("value", ['"markdown-flow-0.2"', "4", '"Current"'])
def test_a_bad_target_is_a_warning_and_the_default_applies(value: str) -> None:
    text = f'host = "ai-shifu"\ntarget = {value}\n'
    config, [problem] = parse_course_config(text)
    assert not problem.fatal and "`target` must be one of" in problem.message
    assert text[problem.start : problem.end] == "target"
    assert config.runtime_target == "markdown-flow-0.3.4"
