"""mfls's model of AI-Shifu's learner page (`mfls/workspace/learner_page.py`) against the
page's real parser: remark-flow 0.1.6 and 1.0.0-alpha.7 from npm, run in Node through
markdown-flow-ui's ContentRender pipeline (`remark_flow_page.py`), one process per version
for every line of this module.

The differential test: for every interaction line of the conformance corpus, of the real
AI-Shifu exports and of a seeded generator, the model's reading equals the package's,
element for element (variable, button labels and values, input hint, multiple choice) and
in the text shown around them. A line the model declines (`read_line` gives None: Markdown
inline syntax it does not read) is counted, and each source keeps a floor of lines read.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from remark_flow_page import installed_version, page_readings, require_page

from mfls.disk.memory import MemoryDisk
from mfls.features.code_actions import code_actions
from mfls.features.diagnostics import document_diagnostics
from mfls.text.edits import apply_changes
from mfls.workspace.learner_page import (
    PAGE_VERSIONS,
    REMARK_FLOW_016,
    REMARK_FLOW_100A7,
    binding_readable,
    binding_text,
    multiple_choice_shown,
    page_key,
    read_line,
)
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace
from tests.ai_shifu_exports import shared_exports

CONFORMANCE = Path(__file__).resolve().parents[1] / "conformance"


def _interaction_lines(text: str) -> Iterator[str]:
    for line in text.splitlines():
        if line.strip(" \t").startswith("?["):
            yield line


def conformance_lines() -> list[str]:
    found: dict[str, None] = {}
    for path in sorted(CONFORMANCE.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            if isinstance(case.get("input"), str):
                found.update(dict.fromkeys(_interaction_lines(case["input"])))
    return list(found)


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def export_lines() -> list[str]:
    folder = shared_exports()
    if folder is None:
        return []
    found: dict[str, None] = {}
    for path in sorted(folder.glob("*.json")):
        for text in _strings(json.loads(path.read_text(encoding="utf-8"))):
            found.update(dict.fromkeys(_interaction_lines(text)))
    return list(found)


KEYS = [
    *("level", "Level2", "learner_name", "x", "_x", "x_", "L", "a1b2"),  # ASCII
    *("2nd", "9", "1a"),  # a digit first
    *("a b", "What would you like to learn?", "what?", "a-b", "a.b", "a:b"),
    *("café", "naïve", "Ünïcödé", "Ａｂ"),  # accents, full width
    *("名字", "学习目标", "你好世界", "㐀", "鿿"),  # CJK, and outside U+4E00-U+9FA5
    *("ひらがな", "カタカナ", "ｶﾅ", "ー"),  # kana
    *("한글", "이름"),  # Hangul
    *("a\tb", "x\u00a0y", "é2"),
]
OPTIONS = [
    *("A", "B", "Option C", "Python", "学习", "カナ", "한글", "é"),
    *("https://x", "x//y", "//v", "l//", "a//b//c", "\\//", "https:\\/\\/x"),
    *("http://x_y", "https://x.com"),  # the second an autolink: the model declines it
    *("a\\|b", "a\\\\", "\\", "a\\.b"),
    *("A｜B", "a | b", " ", "%{{", "}}", "%{x}", "a…b", "x..y"),
]
SEPARATORS = [" | ", "|", " || ", "||", " ｜ ", "｜", "|||", " | | "]
HINTS = ["", "...", "...hint", " ...Your answer", "...a...b", "... x//y", "...a|b"]


def _binding(rng: random.Random) -> str:
    key = rng.choice(KEYS)
    pad = rng.choice(["", "", " ", "  ", "\t", "\u3000"])
    left, right = (pad, pad) if rng.random() < 0.8 else (pad, "")
    return rng.choice(["%{{", "%{{", "%{{", "{{", "% {{"]) + left + key + right + "}}"


def generated_lines(count: int = 1000, seed: int = 28) -> list[str]:
    """Interactions over the key alphabets, paddings, option texts and separators each
    page version reads otherwise (a seeded generator: the same lines every run)."""
    rng = random.Random(seed)
    lines = []
    for _ in range(count):
        head = _binding(rng) if rng.random() < 0.85 else ""
        if head and rng.random() < 0.1:
            head = " " + head
        options = [rng.choice(OPTIONS) for _ in range(rng.randint(0, 4))]
        body = ""
        for index, option in enumerate(options):
            body += option + (rng.choice(SEPARATORS) if index < len(options) - 1 else "")
        if rng.random() < 0.3:
            body += rng.choice(["", " | ", " || ", "|"]) + rng.choice(HINTS)
        space = rng.choice(["", " ", " ", "  "])
        tail = rng.choice(["", "", " ", " then", " ?[Next]", " ?[%{{k}} A | B]", " (x)"])
        lines.append(f"?[{head}{space}{body}]{tail}")
    return lines


def key_lines() -> list[str]:
    """A binding of every sample key, tight and padded, and the page's name for it."""
    lines = []
    for key in KEYS:
        lines.append("?[%{{" + key + "}} A | B]")
        lines.append("?[%{{ " + key + " }} A | B]")
        new = page_key(key, ())
        lines.append(f"?[{binding_text(new, PAGE_VERSIONS)} A | B]")
        lines.append(f"?[{binding_text(new, (REMARK_FLOW_100A7,))} ...hint]")
    return lines


# The claims and those of the user guide (docs/guide/courses-and-hosts.md), each
# with what the learner gets on each version.
CLAIMS = [
    "?[%{{level}} A | B]",
    "?[%{{ level }} A | B]",
    "?[%{{What would you like to learn?}} Python | JS]",
    "?[%{{site}} https://x | B]",
    "?[%{{site}} https:\\/\\/x | B]",
    "?[%{{x}} a\\|b | c]",
    "?[%{{x}} A || B]",
    "?[%{{x}} A ｜ B]",
    "?[%{{x}} A | B | ...Other]",
    "?[%{{x}} \\.\\.\\.not a hint | B]",
]

# -- mfls's diagnostics and fixes on an AI-Shifu course, against the real page.


Reading = tuple[tuple[tuple[str, str], ...], bool, "str | None"]
"""An interaction's choices (label, value), multiple choice and input hint."""


class Checked(NamedTuple):
    """A binding of a lesson of an `ai-shifu` course (every page version targeted)."""

    line: str
    key: str
    flagged: bool  # page-unreadable-binding on its key
    declined: bool  # the model declines the line: judged by the marker alone
    fixed: str | None  # the line after the diagnostic's fix


@cache
def checked_course() -> tuple[list[Checked], list[tuple[str, Reading]]]:
    """The key lines, the claims and the conformance lines as one lesson: each binding
    with its diagnostic and fixed line; and each page-reads-otherwise line with its
    interaction's text."""
    lines = list(dict.fromkeys([*key_lines(), *CLAIMS, *conformance_lines()]))
    text = "\n\n".join(lines) + "\n"
    files = {"/course/a.md": text, "/course/mfcourse.toml": 'host = "ai-shifu"\n'}
    workspace = Workspace(disk=MemoryDisk(files))
    workspace.set_folders(["/course"])
    workspace.index_all()
    uri = path_to_uri("/course/a.md")
    diagnostics = document_diagnostics(workspace.snapshot, uri)
    unread = {d.start for d in diagnostics if d.code == "page-unreadable-binding"}
    found = workspace.snapshot.entry(uri)
    assert found is not None
    entry = found[1]
    checked = []
    for interaction in entry.interactions:
        marker = interaction.binding_marker
        if marker is None or interaction.binding is None or not entry.binds(marker):
            continue
        start = text.rfind("\n", 0, interaction.start) + 1
        line = text[start : text.index("\n", interaction.start)]
        if start != interaction.start:
            continue
        fixed = None
        if marker.start in unread:
            offered = code_actions(workspace.snapshot, uri, marker.start, marker.start)
        else:
            offered = []
        for action in offered:
            if action.fixes == "page-unreadable-binding":
                [document] = [d for d in action.change.documents if d.uri == uri]
                after = apply_changes(text, document.changes)
                fixed = after.split("\n")[text.count("\n", 0, start)]
        declined = any(read_line(line, v) is None for v in PAGE_VERSIONS)
        checked.append(Checked(line, marker.key, marker.start in unread, declined, fixed))
    runtime = {i.start: i for i in entry.interactions}
    otherwise = []
    for d in diagnostics:
        if d.code == "page-reads-otherwise":
            read = runtime[d.start]
            line = text[text.rfind("\n", 0, d.start) + 1 :].split("\n", 1)[0]
            choices = tuple((c.label, c.value) for c in read.choices)
            otherwise.append((line, (choices, read.multiple, read.input)))
    return checked, otherwise


@cache
def sources() -> dict[str, list[str]]:
    return {
        "conformance": conformance_lines(),
        "exports": export_lines(),
        "generated": generated_lines(),
        "keys": key_lines(),
        "claims": CLAIMS,
        "fixed": [c.fixed for c in checked_course()[0] if c.fixed is not None],
    }


SOURCE_NAMES = ("conformance", "exports", "generated", "keys", "claims", "fixed")


@cache
def all_lines() -> list[str]:
    return list(dict.fromkeys(line for lines in sources().values() for line in lines))


# The least share of each source's lines the model must read (not decline).
FLOORS = {
    **{"conformance": 0.6, "exports": 1.0, "generated": 0.75},
    **{"keys": 1.0, "claims": 1.0, "fixed": 0.7},
}


@cache
def _real(version: str) -> dict[str, dict[str, Any]]:
    lines = all_lines()
    return dict(zip(lines, page_readings(version, lines), strict=True))


@pytest.fixture(scope="module", params=PAGE_VERSIONS)
def page(request: pytest.FixtureRequest) -> tuple[str, dict[str, dict[str, Any]]]:
    require_page()
    version: str = request.param
    assert version.endswith(installed_version(version))
    return version, _real(version)


def _model(line: str, version: str) -> dict[str, Any] | None:
    reading = read_line(line, version)
    if reading is None:
        return None
    return {"elements": [e.to_properties() for e in reading.elements], "text": reading.text}


@pytest.mark.parametrize("source", SOURCE_NAMES)
def test_model_equals_the_page_line_for_line(
    page: tuple[str, dict[str, dict[str, Any]]], source: str
) -> None:
    version, real = page
    lines = sources()[source]
    if source == "exports" and not lines:
        pytest.skip("the real AI-Shifu exports are not here")
    assert lines
    read = 0
    differ = []
    for line in lines:
        mine = _model(line, version)
        if mine is None:
            continue
        read += 1
        theirs = {"elements": real[line]["elements"], "text": real[line]["text"]}
        if mine != theirs:
            differ.append((line, mine, theirs))
    assert not differ, f"{len(differ)} lines differ, first: {differ[:3]}"
    assert read >= FLOORS[source] * len(lines), f"the model read {read} of {len(lines)}"


def test_the_sources_hold_what_they_should() -> None:
    """The corpus has interaction lines; the generator covers each case it names."""
    assert set(sources()) == set(SOURCE_NAMES)
    assert len(sources()["conformance"]) >= 100
    generated = sources()["generated"]
    for needle in ("%{{ ", "\\|", "||", "｜", "//", "...", "한글", "カタカナ", "2nd"):
        assert any(needle in line for line in generated), needle


@pytest.mark.parametrize("padded", [False, True])
def test_binding_readable_is_what_the_page_binds(
    page: tuple[str, dict[str, dict[str, Any]]], padded: bool
) -> None:
    version, real = page
    for key in KEYS:
        line = "?[%{{ " + key + " }} A | B]" if padded else "?[%{{" + key + "}} A | B]"
        elements = real[line]["elements"]
        bound = bool(elements) and elements[0].get("variableName") == key
        assert bound == binding_readable(key, padded, (version,)), (key, padded)


def test_page_key_is_bound_by_every_version(page: tuple[str, dict[str, dict[str, Any]]]) -> None:
    version, real = page
    for key in KEYS:
        new = page_key(key, ())
        assert new and binding_readable(new, False, PAGE_VERSIONS), key
        for line, form in (
            (f"?[{binding_text(new, PAGE_VERSIONS)} A | B]", PAGE_VERSIONS),
            (f"?[{binding_text(new, (REMARK_FLOW_100A7,))} ...hint]", (REMARK_FLOW_100A7,)),
        ):
            if version in form:
                assert real[line]["elements"][0].get("variableName") == new, (key, line)


def test_multiple_choice_is_what_the_page_shows(
    page: tuple[str, dict[str, dict[str, Any]]],
) -> None:
    """The snippets offer a multiple choice only where every targeted page shows one."""
    version, _ = page
    [reading] = page_readings(version, ["?[%{{question}} A || B || C]"])
    elements = reading["elements"]
    shown = bool(elements) and elements[0].get("isMultiSelect") is True
    assert shown == multiple_choice_shown((version,))


def test_page_key_names() -> None:
    assert page_key("What would you like to learn?", ()) == "what_would_you_like_to_learn"
    assert page_key("2nd try", ()) == "_2nd_try"
    assert page_key("café au lait", ()) == "cafe_au_lait"
    assert page_key("学习目标", ()) == "学习目标"
    assert page_key("カタカナ", ()) == "katakana"
    assert page_key("한글 이름", ()) == "hangeul_ireum"
    assert page_key("level", {"level", "level_2"}) == "level_3"
    assert page_key("???", ()) == page_key("???", ()) != page_key("!!!", ())


def _buttons(element: dict[str, Any]) -> list[tuple[str, str]]:
    return list(zip(element.get("buttonTexts", []), element.get("buttonValues", []), strict=True))


def test_what_the_learner_gets(page: tuple[str, dict[str, dict[str, Any]]]) -> None:
    """The claims of the user guide and of mfls's messages, on the real page."""
    version, real = page
    old = version == REMARK_FLOW_016

    def element(line: str) -> dict[str, Any] | None:
        elements = real[line]["elements"]
        return elements[0] if elements else None

    padded = element("?[%{{ level }} A | B]")
    if old:  # a padded binding: buttons without a variable, the marker in a label
        assert padded == {
            "buttonTexts": ["%{{ level }} A", "B"],
            "buttonValues": ["%{{ level }} A", "B"],
        }
    else:
        assert padded is not None and padded["variableName"] == "level"
    question = element("?[%{{What would you like to learn?}} Python | JS]")
    if old:
        assert question is not None and "variableName" not in question
        assert question["buttonTexts"][0] == "%{{What would you like to learn?}} Python"
    else:  # raw text
        assert question is None
        assert real["?[%{{What would you like to learn?}} Python | JS]"]["text"] == (
            "?[%{{What would you like to learn?}} Python | JS]"
        )
    site = element("?[%{{site}} https://x | B]")
    assert site is not None and _buttons(site) == [("https:", "x"), ("B", "B")]
    escaped = element("?[%{{site}} https:\\/\\/x | B]")  # markdown-flow: one option https://x
    assert escaped is not None and _buttons(escaped)[0] == ("https:", "x")
    pipes = element("?[%{{x}} a\\|b | c]")  # markdown-flow: `a|b` and `c`
    assert pipes is not None and pipes["buttonTexts"] == ["a", "b", "c"]
    multiple = element("?[%{{x}} A || B]")
    assert multiple is not None and multiple["buttonTexts"] == ["A", "B"]
    assert multiple.get("isMultiSelect") is (True if old else None)
    wide = element("?[%{{x}} A ｜ B]")
    assert wide is not None
    assert wide["buttonTexts"] == (["A ｜ B"] if old else ["A", "B"])
    dots = element("?[%{{x}} \\.\\.\\.not a hint | B]")  # markdown-flow: two options
    assert dots is not None and dots["placeholder"] == "not a hint | B"


def _binds(reading: dict[str, Any], key: str) -> bool:
    elements = reading["elements"]
    return bool(elements) and elements[0].get("variableName") == key


def test_the_diagnostic_is_on_exactly_the_bindings_the_page_does_not_read() -> None:
    """page-unreadable-binding on a binding iff a version does not bind it; a line the
    model declines is judged by its marker: flagged only where no version binds it."""
    require_page()
    checked = checked_course()[0]
    flagged = [c for c in checked if c.flagged]
    assert len(flagged) >= 20 and len(checked) - len(flagged) >= 20
    for c in checked:
        bound = [_binds(_real(version)[c.line], c.key) for version in PAGE_VERSIONS]
        if c.declined:
            assert not c.flagged or not all(bound), c
        else:
            assert c.flagged == (not all(bound)), (c, bound)


def test_every_fix_gives_a_binding_every_version_reads() -> None:
    require_page()
    fixed = [(c, c.fixed) for c in checked_course()[0] if c.flagged and c.fixed is not None]
    assert len(fixed) >= 20
    for c, line in fixed:
        for version in PAGE_VERSIONS:
            elements = _real(version)[line]["elements"]
            assert elements and elements[0].get("variableName"), (c, version)
            assert binding_readable(elements[0]["variableName"], False, PAGE_VERSIONS), c


def _shown(element: dict[str, Any]) -> Reading:
    choices = tuple(_buttons(element))
    return choices, bool(element.get("isMultiSelect")), element.get("placeholder")


def test_page_reads_otherwise_is_what_the_page_shows() -> None:
    """Each interaction with page-reads-otherwise: on some version the real page shows
    no interaction, or other choices, multiple choice or input than the runtime reads
    (mfls's reading, tested against markdown-flow in tests/hosts); and the model of the
    page is the page there."""
    require_page()
    otherwise = checked_course()[1]
    assert len(otherwise) >= 5
    for line, read in otherwise:
        readings = [_real(version)[line]["elements"] for version in PAGE_VERSIONS]
        assert any(not r or _shown(r[0]) != read for r in readings), (line, read, readings)
        models = [_model(line, version) for version in PAGE_VERSIONS]
        assert [m["elements"] for m in models if m] == readings, line
