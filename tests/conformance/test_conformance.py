"""Run the shared conformance cases (tests/conformance/*.json) against mfls.

The JSON files are the suite; README.md in this folder describes their format.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

CASE_DIR = Path(__file__).resolve().parent
CATEGORIES = frozenset({"normalization", "extraction", "interaction", "document-context"})
NORMALIZATION_REASONS = frozenset({"empty", "line-break", "control-character"})
REASONS = NORMALIZATION_REASONS | {"unclosed"}
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MIN_CASES = 250

CASE_FIELDS = {"id", "category", "description"}
MARKER_FIELDS = {"start", "end", "key", "role", "legacy", "literal"}
CONTEXTS = frozenset(
    {
        "code-span",
        "math",
        "link-destination",
        "link-title",
        "link-label",
        "link-definition",
        "autolink",
        "html-tag",
        "html-comment",
        "html-block",
        "info-string",
    }
)
INVALID_FIELDS = {"start", "end", "reason"}
INTERACTION_FIELDS = {"start", "end", "binding", "multiple", "choices", "input"}


def _load_files() -> dict[str, dict[str, Any]]:
    return {
        path.name: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(CASE_DIR.glob("*.json"))
    }


FILES = _load_files()
CASES: list[dict[str, Any]] = [case for data in FILES.values() for case in data["cases"]]
NORMALIZATION = [c for c in CASES if c["category"] == "normalization"]
DOCUMENTS = [c for c in CASES if c["category"] != "normalization"]


def _ids(cases: list[dict[str, Any]]) -> list[str]:
    return [case["id"] for case in cases]


# --- structure of the files -------------------------------------------------------------


def test_every_category_has_a_file() -> None:
    assert {data["category"] for data in FILES.values()} == CATEGORIES


@pytest.mark.parametrize("name", sorted(FILES))
def test_file_header(name: str) -> None:
    data = FILES[name]
    assert set(data) == {"version", "category", "cases"}
    assert data["version"] == 1
    assert data["category"] in CATEGORIES
    assert all(case["category"] == data["category"] for case in data["cases"])


def test_ids_unique_and_kebab_case() -> None:
    ids = _ids(CASES)
    assert len(ids) == len(set(ids)), sorted({i for i in ids if ids.count(i) > 1})
    assert [i for i in ids if not ID_PATTERN.match(i)] == []


def test_total_case_count() -> None:
    assert len(CASES) >= MIN_CASES


def test_files_match_their_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    """The JSON files are what tools/build.py writes: nobody edited one by hand."""
    monkeypatch.syspath_prepend(str(CASE_DIR / "tools"))
    casegen = importlib.import_module("casegen")
    for name, module in (
        ("normalization.json", "normalization_cases"),
        ("extraction.json", "extraction_cases"),
        ("interaction.json", "interaction_cases"),
        ("document-context.json", "document_context_cases"),
    ):
        book = importlib.import_module(module).build()
        assert casegen.render(book) == (CASE_DIR / name).read_text(encoding="utf-8"), name


@pytest.mark.parametrize("case", NORMALIZATION, ids=_ids(NORMALIZATION))
def test_normalization_case_shape(case: dict[str, Any]) -> None:
    assert set(case) == CASE_FIELDS | {"body", "expect"}
    assert isinstance(case["description"], str) and case["description"]
    body, expect = case["body"], case["expect"]
    assert isinstance(body, str)
    assert set(expect) in ({"key"}, {"reason"})
    if "reason" in expect:
        assert expect["reason"] in NORMALIZATION_REASONS
    else:
        assert isinstance(expect["key"], str) and expect["key"]
    marker = "{{" + body + "}}"
    assert marker.find("}}") == len(marker) - 2, "the body must not close the marker early"


def _check_span(text: str, item: dict[str, Any]) -> str:
    start, end = item["start"], item["end"]
    assert isinstance(start, int) and isinstance(end, int)
    assert 0 <= start < end <= len(text)
    return text[start:end]


@pytest.mark.parametrize("case", DOCUMENTS, ids=_ids(DOCUMENTS))
def test_document_case_shape(case: dict[str, Any]) -> None:
    assert set(case) == CASE_FIELDS | {"input", "expect"}
    assert isinstance(case["description"], str) and case["description"]
    text, expect = case["input"], case["expect"]
    assert isinstance(text, str)
    assert set(expect) == {"markers", "invalid", "interactions"}
    for items in expect.values():
        starts = [item["start"] for item in items]
        assert starts == sorted(starts)
    for m in expect["markers"]:
        assert set(m) in (MARKER_FIELDS, MARKER_FIELDS | {"context"})
        if "context" in m:
            assert m["context"] in CONTEXTS if m["literal"] else m["context"] is None
        span = _check_span(text, m)
        assert m["role"] in ("binding", "reference")
        assert span.startswith("%{{" if m["legacy"] else "{{")
        assert span.find("}}") == len(span) - 2
        assert not m["legacy"] or m["role"] == "binding"
        assert isinstance(m["literal"], bool) and isinstance(m["key"], str) and m["key"]
        assert not (m["literal"] and m["role"] == "binding")
    for i in expect["invalid"]:
        assert set(i) == INVALID_FIELDS
        span = _check_span(text, i)
        assert i["reason"] in REASONS
        assert span.startswith("{{")
        if i["reason"] == "unclosed":
            assert "}}" not in span
        else:
            assert span.find("}}") == len(span) - 2
    for x in expect["interactions"]:
        assert set(x) == INTERACTION_FIELDS
        span = _check_span(text, x)
        assert span.startswith("?[") and span.endswith("]")
        assert x["binding"] is None or isinstance(x["binding"], str)
        assert x["input"] is None or isinstance(x["input"], str)
        assert isinstance(x["multiple"], bool)
        for choice in x["choices"]:
            assert set(choice) == {"label", "value"}
    bindings = [m for m in expect["markers"] if m["role"] == "binding"]
    bound = [x for x in expect["interactions"] if x["binding"] is not None]
    assert len(bindings) == len(bound)
    for m, x in zip(bindings, bound, strict=True):
        assert m["key"] == x["binding"]
        assert x["start"] < m["start"] and m["end"] < x["end"]


# --- running the cases ------------------------------------------------------------------


def _as_stated(actual: dict[str, Any], expect: dict[str, Any]) -> dict[str, Any]:
    """`actual` (a scan's JSON) with the `context` of each marker left out where the case
    does not state one: cases written before the field existed check everything else."""
    markers = []
    for k, marker in enumerate(actual["markers"]):
        wanted = expect["markers"][k] if k < len(expect["markers"]) else {}
        if "context" not in wanted:
            marker = {name: value for name, value in marker.items() if name != "context"}
        markers.append(marker)
    kept = {name: value for name, value in actual.items() if name != "version"}
    return {**kept, "markers": markers}


def test_scan_json_names_its_version() -> None:
    from mfls.syntax.scanner import scan

    data = scan("<pre>{{ a }}</pre>\n").to_json()
    assert list(data) == ["version", "markers", "invalid", "interactions"]
    assert data["version"] == 2
    assert data["markers"][0]["context"] == "html-block"


def test_context_field_is_in_the_scan_contract() -> None:
    from mfls.syntax.scanner import scan

    text = "{{ a }} `{{ b }}` $x{{ c }}$ [l](<{{ d }}> '{{ e }}') [l][{{ f }}]"
    text += " <http://{{g}}> <i title='{{ h }}'> <!-- {{ i }} -->\n\n"
    text += "[{{ j }}]: /u\n\n```{{ k }}\n```\n"
    contexts = {m["key"]: m["context"] for m in scan(text).to_json()["markers"]}
    assert contexts == {
        "a": None,
        "b": "code-span",
        "c": "math",
        "d": "link-destination",
        "e": "link-title",
        "f": "link-label",
        "g": "autolink",
        "h": "html-tag",
        "i": "html-comment",
        "j": "link-definition",
        "k": "info-string",
    }


@pytest.mark.parametrize("case", NORMALIZATION, ids=_ids(NORMALIZATION))
def test_normalize_key(case: dict[str, Any]) -> None:
    from mfls.syntax.keys import normalize_key

    key, reason = normalize_key(case["body"])
    expect = case["expect"]
    assert (key, reason) == (expect.get("key"), expect.get("reason"))


@pytest.mark.parametrize("case", NORMALIZATION, ids=_ids(NORMALIZATION))
def test_normalization_through_scan(case: dict[str, Any]) -> None:
    from mfls.syntax.scanner import scan

    text = "{{" + case["body"] + "}}"
    expect = case["expect"]
    if "key" in expect:
        marker = {
            "start": 0,
            "end": len(text),
            "key": expect["key"],
            "role": "reference",
            "legacy": False,
            "literal": False,
        }
        wanted = {"markers": [marker], "invalid": [], "interactions": []}
    else:
        invalid = {"start": 0, "end": len(text), "reason": expect["reason"]}
        wanted = {"markers": [], "invalid": [invalid], "interactions": []}
    assert _as_stated(scan(text).to_json(), wanted) == wanted


@pytest.mark.parametrize("case", DOCUMENTS, ids=_ids(DOCUMENTS))
def test_scan(case: dict[str, Any]) -> None:
    from mfls.syntax.scanner import scan

    assert _as_stated(scan(case["input"]).to_json(), case["expect"]) == case["expect"]


def _byte_sensitive(case: dict[str, Any]) -> bool:
    text = case["input"]
    return any(ch in text for ch in "\r\ufeff\x00") or any(ord(ch) > 0xFFFF for ch in text)


BYTE_CASES = [case for case in DOCUMENTS if _byte_sensitive(case)]


@pytest.mark.parametrize("case", BYTE_CASES, ids=_ids(BYTE_CASES))
def test_scan_command_reads_bytes(
    case: dict[str, Any], tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]
) -> None:
    """`mfls scan --json PATH` on the UTF-8 bytes: BOM, CR, NUL and astral characters."""
    from mfls.cli import main

    source = tmp_path / "case.md"
    source.write_bytes(case["input"].encode("utf-8"))
    assert main(["scan", "--json", str(source)]) == 0
    printed = json.loads(capfdbinary.readouterr().out.decode("utf-8"))
    assert _as_stated(printed, case["expect"]) == case["expect"]
