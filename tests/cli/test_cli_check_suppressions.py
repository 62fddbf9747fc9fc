"""Suppression comments in `mfls check` (text, json, github and SARIF) and `mfls map`: a
silenced problem is in no report, but SARIF's, as a result with an in-source suppression
(SARIF 2.1.0 §3.35, validated against the schema); a silenced error fails no check; the
map's figures and lanes count it nowhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_cli_check_ci import annotations, check, validate_sarif

from tests.kit.cli import mfls

LESSON = """\
?[{{ topic }} Python | JavaScript]

<!-- mfls-disable-next-line near-miss -->
Use {{ topc }} here.

Use {{}} here. <!-- mfls-disable-line marker-empty -->

<!-- mfls-disable unbound-reference -->
Use {{ nope }}.
<!-- mfls-enable -->

<!-- mfls-disable-next-line near-miss -->
Nothing here.

Use {{ topc }} again.
"""
# line, column, code of what is kept; of what is silenced
KEPT = [(12, 1, "unused-suppression"), (15, 5, "near-miss")]
SILENCED = [(4, 5, "near-miss"), (6, 5, "marker-empty"), (9, 5, "unbound-reference")]


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("course")
    (root / "mfcourse.toml").write_text('name = "Demo"\nlessons = ["01.md"]\n', encoding="utf-8")
    (root / "01.md").write_text(LESSON, encoding="utf-8")
    return root


def test_text(course: Path) -> None:
    done = check(".", cwd=course)
    # The only error (marker-empty) is silenced: the check passes.
    assert done.returncode == 0, done.stdout
    lines = done.stdout.decode("utf-8").splitlines()
    assert [tuple(line.split(" ")[0].split(":")[1:3]) for line in lines] == [
        (str(line), str(column)) for line, column, _ in KEPT
    ]
    assert [line.split(" ")[2] for line in lines] == [code for _, _, code in KEPT]


def test_json_lists_the_silenced_apart(course: Path) -> None:
    report = json.loads(check("--format", "json", ".", cwd=course).stdout)
    places = [(d["line"], d["column"], d["code"]) for d in report["diagnostics"]]
    assert places == KEPT
    silenced = [(d["line"], d["column"], d["code"]) for d in report["suppressed"]]
    assert silenced == SILENCED


def test_github(course: Path) -> None:
    found = annotations(check("--format", "github", ".", cwd=course).stdout)
    assert [(int(a["line"]), int(a["col"]), a["title"].split()[-1]) for a in found] == KEPT


def test_sarif_keeps_the_silenced_with_an_in_source_suppression(course: Path) -> None:
    log = json.loads(check("--format", "sarif", ".", cwd=course).stdout)
    validate_sarif(log)
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    for result in results:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    placed = [
        (
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["locations"][0]["physicalLocation"]["region"]["startColumn"],
            r["ruleId"],
            r.get("suppressions"),
        )
        for r in results
    ]
    in_source = [{"kind": "inSource"}]
    assert sorted(placed) == sorted(
        [(*k, None) for k in KEPT] + [(*s, in_source) for s in SILENCED]
    )
    assert "unused-suppression" in {rule["id"] for rule in rules}


def test_the_map_counts_no_silenced_problem(course: Path) -> None:
    done = mfls("map", "--format", "json", ".", cwd=course)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    figures = found["figures"]
    assert (figures["errors"], figures["warnings"], figures["problems"]) == (0, 2, 2)
    lanes = {lane["key"]: lane for lane in found["keys"]}

    # topc: one near-miss silenced (still a near miss, marked silenced), the other kept.
    def kinds(key: str) -> list[tuple[str, list[str]]]:
        return [(p["kind"], p.get("silenced", [])) for p in lanes[key]["places"]]

    assert kinds("topc") == [("near-miss", ["near-miss"]), ("near-miss", [])]
    assert lanes["topc"]["problems"] == [{"code": "near-miss", "count": 1, "suggestion": "topic"}]
    assert kinds("nope") == [("unbound", ["unbound"])]
    assert lanes["nope"]["problems"] == []
