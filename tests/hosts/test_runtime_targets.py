"""The course `target` against the released SDKs: every sentence the target diagnostics
say about markdown-flow 0.4.2, 0.3.1 and 0.3.4 is checked here on the same text, and a
hypothesis differential test compares what mfls reads under each target (keys found, what
an interaction binds, where it ends, its choices and input, option texts with delimiter
escapes included) with what the SDK reads.

Known differences (tested as exceptions below, outside the generator):
- under an old target `?[{{ k }} A | B]` binds nothing in both, but the SDK shows the
  marker as part of the first button (`{{ k }} A`), where mfls keeps the choice `A`;
- markdown-flow 0.3.1 and 0.3.4 read `\\{{k}}` as a marker (mfls: an escaped brace, text),
  and keys holding a control character or a line break (mfls: invalid markers, errors);
- markdown-flow 0.3.1 and 0.3.4 never read a key holding `}` (runtime-key-differs);
- markdown-flow 0.3.4 and 0.4.2 read no interaction whose every `]` is escaped
  (`?[%{{ q }} a\\]`); mfls keeps its own reading of it.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from runtimes import Runtime

from mfls.disk.memory import MemoryDisk
from mfls.features.code_actions import code_actions
from mfls.features.diagnostics import Diagnostic, document_diagnostics
from mfls.syntax.model import Role
from mfls.syntax.scanner import scan
from mfls.text.edits import apply_changes
from mfls.workspace.index import runtime_binds
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace

URI = path_to_uri("/course/a.md")


def checked(text: str, target: str, host: str = "generic") -> tuple[Workspace, list[Diagnostic]]:
    config = f'host = "{host}"\ntarget = "{target}"\n'
    workspace = Workspace(disk=MemoryDisk({"/course/a.md": text, "/course/mfcourse.toml": config}))
    workspace.set_folders(["/course"])
    workspace.index_all()
    return workspace, document_diagnostics(workspace.snapshot, URI)


def first_sentence(message: str) -> str:
    return message.split(". ")[0] + "."


def fixed(workspace: Workspace, text: str, code: str) -> str:
    [action] = [a for a in code_actions(workspace.snapshot, URI, 0, len(text)) if a.fixes == code]
    [document] = action.change.documents
    return apply_changes(text, list(document.changes))


# -- the sentences of the diagnostics ------------------------------------------------------


def test_legacy_hint_names_the_runtimes_that_bind_only_with_percent(runtime: Runtime) -> None:
    _, [hint] = checked("?[%{{ q }} A | B]\n", "current")
    assert hint.code == "legacy-binding"
    assert "markdown-flow 0.3.1, 0.3.4 and 0.4.2 bind only `%{{...}}`" in hint.message
    assert runtime.parse("?[%{{ q }} A | B]")["variable"] == "q"
    assert runtime.parse("?[{{ q }} A | B]")["variable"] is None


def test_a_brace_binding_saves_nothing_on_an_old_runtime(runtime: Runtime) -> None:
    text = "?[{{ q }} A | B]\n"
    workspace, [found] = checked(text, runtime.name)
    assert found.code == "runtime-binding-ignored" and found.severity == "warning"
    sentence = f"markdown-flow {runtime.release} saves nothing here: write `%{{{{ q }}}}`."
    assert first_sentence(found.message) == sentence and len(sentence) <= 80
    assert "binds an answer only with `%{{...}}`" in found.message
    assert "shows this marker as part of the first button's text" in found.message
    parsed = runtime.parse(text.strip())
    assert parsed["variable"] is None
    assert parsed["buttons"] == ["{{ q }} A", "B"]
    # The fix makes the runtime bind it, and mfls agrees.
    after = fixed(workspace, text, "runtime-binding-ignored")
    assert after == "?[%{{ q }} A | B]\n"
    assert runtime.parse(after.strip())["variable"] == "q"
    assert runtime.parse(after.strip())["buttons"] == ["A", "B"]
    assert checked(after, runtime.name)[1] == []


def test_no_legacy_hint_and_no_conversion_on_an_old_runtime(runtime: Runtime) -> None:
    text = "?[%{{ q }} A | B]\n\nUse {{ q }}.\n"
    workspace, found = checked(text, runtime.name)
    assert found == []
    actions = code_actions(workspace.snapshot, URI, 0, len(text))
    assert not [a for a in actions if "legacy" in a.title.lower() or "legacy" in a.kind.lower()]
    assert runtime.parse("?[%{{ q }} A | B]")["variable"] == "q"


def test_a_percent_binding_after_a_space_on_markdown_flow_03(mf03x: Runtime, mf04: Runtime) -> None:
    text = "?[ %{{ q }} A | B]\n"
    _, [found] = checked(text, mf03x.name)
    assert found.code == "runtime-binding-ignored"
    assert first_sentence(found.message) == (
        f"markdown-flow {mf03x.release} saves nothing here: write `%{{{{` right after `?[`."
    )
    assert "shows the marker as button text" in found.message
    parsed = mf03x.parse(text.strip())
    assert parsed["variable"] is None and parsed["buttons"][0] == "%{{ q }} A"
    # 0.4 binds it, as mfls reads it.
    assert checked(text, "markdown-flow-0.4")[1] == []
    assert mf04.parse(text.strip())["variable"] == "q"


@pytest.mark.parametrize("text", ["Hi {{ a} }}.\n", "?[%{{ a} }} A | B]\n"])
def test_a_key_holding_a_brace_on_markdown_flow_03(
    text: str, mf03x: Runtime, mf04: Runtime
) -> None:
    found = [d for d in checked(text, mf03x.name)[1] if d.code == "runtime-key-differs"]
    [diagnostic] = found
    assert first_sentence(diagnostic.message) == (
        f"markdown-flow {mf03x.release} never reads this marker: its key holds `}}`."
    )
    assert "neither substitutes nor binds" in diagnostic.message
    assert mf03x.extract(text) == []
    assert mf03x.parse("?[%{{ a} }} A | B]")["variable"] is None
    assert not [d for d in checked(text, "markdown-flow-0.4")[1] if d.code == "runtime-key-differs"]
    assert mf04.extract(text) == ["a}"]
    assert mf04.parse("?[%{{ a} }} A | B]")["variable"] == "a}"


def test_known_exceptions_of_markdown_flow_03(mf03x: Runtime, mf04: Runtime) -> None:
    # An escaped brace: text for mfls and 0.4, a marker for 0.3.1 and 0.3.4.
    assert scan("Hi \\{{k}}.").markers == ()
    assert mf04.extract("Hi \\{{k}}.") == []
    assert mf03x.extract("Hi \\{{k}}.") == ["k"]
    # A control character or a line break in a key: mfls reports an invalid marker.
    for text in ("{{a\tb}}", "{{a\nb}}"):
        assert scan(text).markers == () and len(scan(text).invalid) == 1
        assert mf04.extract(text) == []
        assert mf03x.extract(text) == [text[2:-2]]


def test_a_reserved_key_keeps_its_error_and_gets_no_percent_fix(mf04: Runtime) -> None:
    text = "?[{{ sys_mine }} A | B]\n"
    workspace, [found] = checked(text, "markdown-flow-0.4", host="ai-shifu")
    assert found.code == "reserved-key-binding"
    assert not [a for a in code_actions(workspace.snapshot, URI, 0, len(text)) if a.fixes]
    assert mf04.parse(text.strip())["variable"] is None


# -- the differential test -----------------------------------------------------------------

KEYS = st.sampled_from(["k", "name", "a b", "user_name", "Q1", "why not", "名字"])
PAD = st.sampled_from(["", " ", "  "])
# Option texts with the delimiter escapes of 0.3.4 and 0.4.2 (`\\|`, `\\]`, `\\/`, `\\.`) and
# backslashes that are no escape there (`$\\pi$`, `\\\\`, `\\beta`).
OPTIONS = [
    "A",
    "B",
    "Yes please",
    "A//x",
    "no",
    "A\\|B",
    "a\\]b",
    "C\\/x",
    "http:\\/\\/x//u",
    "D\\.\\.\\.",
    "$\\pi$",
    "x\\\\y",
    "\\beta",
    "\\|",
]
CHOICES = st.lists(st.sampled_from(OPTIONS), min_size=1, max_size=3)


@st.composite
def marker(draw: Any, legacy: bool = False) -> str:
    left, right = draw(PAD), draw(PAD)
    return ("%" if legacy else "") + "{{" + left + draw(KEYS) + right + "}}"


@st.composite
def interaction(draw: Any) -> str:
    form = draw(st.sampled_from(["percent", "braces", "none"]))
    lead = "" if form == "none" else draw(marker(legacy=form == "percent"))
    if form != "none" and draw(st.booleans()):
        hint = draw(st.sampled_from(["hint", "your name", "", "a\\|b", "x\\]y"]))
        return f"?[{lead}...{hint}]"
    separator = draw(st.sampled_from([" | ", "|", " || "]))
    return "?[" + lead + " " + separator.join(draw(CHOICES)) + "]"


@st.composite
def paragraph(draw: Any) -> str:
    words = draw(
        st.lists(st.one_of(st.sampled_from(["Hello", "and", "then."]), marker()), max_size=5)
    )
    return " ".join(words) or "Text."


DOCUMENTS = st.lists(st.one_of(paragraph(), interaction()), min_size=1, max_size=6).map(
    lambda blocks: "\n\n".join(blocks) + "\n"
)


def expected_interaction(text: str, target: str, found: Any) -> dict[str, Any]:
    marker = found.binding_marker
    binds = marker is not None and runtime_binds(target, text)(marker)
    labels = [c.label for c in found.choices]
    values = [c.value for c in found.choices]
    if marker is not None and not binds:
        # Known difference: the SDK shows the marker as part of the first button.
        if labels:
            prefix = text[marker.start : found.choices[0].start]
            if values[0] == labels[0]:
                values[0] = prefix + values[0]
            labels[0] = prefix + labels[0]
        else:
            labels = values = [text[marker.start : marker.end]]
    return {
        "variable": marker.key if binds and marker else None,
        "buttons": labels,
        "values": values,
    }


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(DOCUMENTS)
def test_mfls_under_each_target_reads_what_the_sdk_reads(runtime: Runtime, text: str) -> None:
    result = scan(text)
    assert sorted({m.key for m in result.markers}) == sorted(set(runtime.extract(text)))
    workspace, _ = checked(text, runtime.name)
    found = workspace.snapshot.entry(URI)
    assert found is not None
    keys = found[1].keys
    # The interactions as the target's runtime reads them (its escapes included).
    for interaction_ in found[1].interactions:
        parsed = runtime.parse(text[interaction_.start : interaction_.end])
        expected = expected_interaction(text, runtime.name, interaction_)
        assert parsed["variable"] == expected["variable"], parsed
        assert parsed["buttons"] == expected["buttons"], parsed
        assert parsed["values"] == expected["values"], parsed
        if expected["variable"] is not None:
            assert expected["variable"] in keys.bindings
            if interaction_.input is not None:
                assert parsed["question"] == interaction_.input
        marker_ = interaction_.binding_marker
        if marker_ is not None and expected["variable"] is None:
            assert marker_.role is Role.BINDING and marker_ in keys.references[marker_.key]


def test_the_unbound_advice_and_its_insertion_bind_on_an_old_runtime(runtime: Runtime) -> None:
    text = "Hello {{ goal }}.\n"
    workspace, [found] = checked(text, runtime.name)
    assert found.code == "unbound-reference" and "(`?[%{{ goal }} ...]`)" in found.message
    [action] = [
        a
        for a in code_actions(workspace.snapshot, URI, 0, len(text))
        if a.fixes == "unbound-reference"
    ]
    [document] = action.change.documents
    after = apply_changes(text, list(document.changes))
    asked = after[after.index("?[") : after.index("]") + 1]
    assert runtime.parse(asked)["variable"] == "goal"
    assert checked(after, runtime.name)[1] == []


ESCAPED = [
    "?[%{{ q }} A\\|B | C]",
    "?[%{{ q }} a\\]b | C]",
    "?[%{{ q }} $\\pi$ | C\\/x//v | D\\.\\.\\.]",
    "?[%{{ q }} A | B ...hint\\|x]",
    "?[%{{ q }} A\\|\\|B || C]",
    "?[%{{ q }} A\\//B]",
    "?[%{{ q }} \\||A]",
]


@pytest.mark.parametrize("text", ESCAPED)
def test_option_escapes_as_each_release_reads_them(runtime: Runtime, text: str) -> None:
    workspace, _ = checked(text + "\n", runtime.name)
    found = workspace.snapshot.entry(URI)
    assert found is not None
    [interaction_] = found[1].interactions
    parsed = runtime.parse(text[interaction_.start : interaction_.end])
    if runtime.release == "0.3.1":
        # No escapes: a backslash is text, and `\]` closes the interaction (as `current`).
        assert text[interaction_.start : interaction_.end] == text[: text.index("]") + 1]
        assert interaction_ == scan(text).interactions[0]
    else:
        assert (interaction_.start, interaction_.end) == (0, len(text))
    assert [c.label for c in interaction_.choices] == parsed["buttons"]
    assert [c.value for c in interaction_.choices] == parsed["values"]
    assert interaction_.input == parsed["question"]
    assert interaction_.multiple == parsed["multi"]


def test_an_escaped_last_bracket_is_no_interaction_on_the_escaping_releases(
    mf034: Runtime, mf04: Runtime, mf03: Runtime
) -> None:
    # Known difference: mfls keeps its own reading of it.
    text = "?[%{{ q }} a\\]"
    assert mf034.parse(text)["type"] is None and mf04.parse(text)["type"] is None
    assert mf03.parse(text)["buttons"] == ["a\\"]
    workspace, _ = checked(text + "\n", "markdown-flow-0.3.4")
    found = workspace.snapshot.entry(URI)
    assert found is not None and found[1].interactions == scan(text + "\n").interactions
