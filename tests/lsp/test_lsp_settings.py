"""The `mfls` settings section, including VS Code's `mfls.trace.server` object form."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from mfls.lsp.settings import Settings, merge_settings


@pytest.mark.parametrize(
    ("trace", "expected"),
    [
        ({"server": "off"}, False),
        ({"server": "messages"}, True),
        ({"server": "verbose"}, True),
        (True, True),
        (False, False),
    ],
)
def test_trace_accepts_the_boolean_and_vscode_object_forms(trace: Any, expected: bool) -> None:
    for base in (Settings(trace=False), Settings(trace=True)):
        settings, problems = merge_settings(base, {"mfls": {"trace": trace}})
        assert (settings.trace, problems) == (expected, [])


def test_trace_object_without_server_leaves_trace_unchanged_quietly() -> None:
    for base in (Settings(trace=False), Settings(trace=True)):
        assert merge_settings(base, {"trace": {}}) == (base, [])


def test_vscode_configuration_section_is_read_without_problems() -> None:
    section = {"logLevel": "info", "diagnosticDelay": 0, "trace": {"server": "verbose"}}
    settings, problems = merge_settings(Settings(), section)
    assert settings == Settings(log_level=logging.INFO, diagnostic_delay=0, trace=True)
    assert problems == []


@pytest.mark.parametrize("trace", [{"server": "loud"}, {"server": True}, "on", 1])
def test_other_trace_values_are_reported_and_ignored(trace: Any) -> None:
    settings, [problem] = merge_settings(Settings(), {"trace": trace})
    assert settings == Settings()
    assert problem.startswith("mfls.trace")


@pytest.mark.parametrize(
    ("value", "expected"), [("auto", "auto"), ("en", "en"), ("zh-CN", "zh-CN"), ("ZH-cn", "zh-CN")]
)
def test_locale_forces_a_language_or_follows_the_client(value: str, expected: str) -> None:
    settings, problems = merge_settings(Settings(), {"mfls": {"locale": value}})
    assert (settings.locale, problems) == (expected, [])


@pytest.mark.parametrize("value", ["fr", "zh-TW", "", 1, None])
def test_other_locales_are_reported_and_ignored(value: Any) -> None:
    settings, [problem] = merge_settings(Settings(locale="en"), {"locale": value})
    assert settings.locale == "en"
    assert problem.startswith("mfls.locale: expected one of auto, en, zh-CN")


def test_the_vscode_setting_offers_the_server_s_locales() -> None:
    import json
    from pathlib import Path

    from mfls.features.messages import AUTO, LANGUAGES

    package = Path(__file__).parents[2] / "editors" / "vscode" / "package.json"
    contributed = json.loads(package.read_text(encoding="utf-8"))["contributes"]
    locale = contributed["configuration"]["properties"]["mfls.locale"]
    assert (locale["enum"], locale["default"]) == ([AUTO, *LANGUAGES], AUTO)
    for value in locale["enum"]:
        assert merge_settings(Settings(), {"mfls": {"locale": value}})[1] == []


def test_closed_documents_is_read_from_the_diagnostics_object() -> None:
    # VS Code sends the whole `mfls` section: `mfls.diagnostics.closedDocuments` nests.
    vscode = {"server": {"path": "", "args": []}, "diagnostics": {"closedDocuments": False}}
    settings, problems = merge_settings(Settings(), vscode)
    assert (settings.closed_documents, problems) == (False, [])
    assert merge_settings(Settings(closed_documents=False), {"diagnostics": {}}) == (
        Settings(closed_documents=False),
        [],
    )
    assert Settings().closed_documents is True


@pytest.mark.parametrize(
    ("value", "path"),
    [({"closedDocuments": "no"}, "mfls.diagnostics.closedDocuments"), (True, "mfls.diagnostics")],
)
def test_other_closed_documents_values_are_reported_and_ignored(value: Any, path: str) -> None:
    settings, [problem] = merge_settings(Settings(), {"diagnostics": value})
    assert settings == Settings()
    assert problem.startswith(f"{path}: expected")


def test_inlay_hints_is_read_from_its_object_and_vscode_defaults_to_the_server() -> None:
    import json
    from pathlib import Path

    settings, problems = merge_settings(Settings(), {"mfls": {"inlayHints": {"enabled": False}}})
    assert (settings.inlay_hints, problems) == (False, [])
    assert merge_settings(settings, {"inlayHints": {}}) == (settings, [])
    assert Settings().inlay_hints is True
    package = Path(__file__).parents[2] / "editors" / "vscode" / "package.json"
    contributed = json.loads(package.read_text(encoding="utf-8"))["contributes"]
    setting = contributed["configuration"]["properties"]["mfls.inlayHints.enabled"]
    assert (setting["type"], setting["default"]) == ("boolean", Settings().inlay_hints)


@pytest.mark.parametrize(
    ("value", "path"),
    [({"enabled": "no"}, "mfls.inlayHints.enabled"), (False, "mfls.inlayHints")],
)
def test_other_inlay_hints_values_are_reported_and_ignored(value: Any, path: str) -> None:
    settings, [problem] = merge_settings(Settings(), {"inlayHints": value})
    assert settings == Settings()
    assert problem.startswith(f"{path}: expected")
