"""The platform's documented MarkdownFlow rules that mfls checks under `host = "ai-shifu"`,
each tested against the sentence that states it, quoted from the course tool's references
in the public repository ai-shifu/skills:

- MF1: `skills/ai-shifu-course-creator/references/markdownflow.md` at commit
  006e9ba1a39956495ddf3654e7d7533ae0bc0de3;
- MF2: `skills/ai-shifu-course-creator/references/markdownflow-2.md` at commit
  264c9f155313675be57558dcf7e7201a64fee4c2.

Where a rule says what the runtime does, the released SDK production runs (markdown-flow
0.3.4, the `ai-shifu` default target) is asked too. The rules mfls does not check are
listed in docs/guide/ai-shifu.md ("The platform's documented rules") with the
reason.
"""

from __future__ import annotations

import pytest
from runtimes import Runtime

from mfls.disk.memory import MemoryDisk
from mfls.features.diagnostics import document_diagnostics
from mfls.syntax.scanner import scan
from mfls.workspace.uris import path_to_uri
from mfls.workspace.workspace import Workspace

URI = path_to_uri("/course/a.md")


def on_ai_shifu(text: str) -> tuple[Workspace, list[tuple[str, str]]]:
    """`text` as a lesson of an `ai-shifu` course naming no target (the default)."""
    files = {"/course/a.md": text, "/course/mfcourse.toml": 'host = "ai-shifu"\n'}
    workspace = Workspace(disk=MemoryDisk(files))
    workspace.set_folders(["/course"])
    workspace.index_all()
    found = document_diagnostics(workspace.snapshot, URI)
    return workspace, [(d.code, d.severity) for d in found]


# MF1, "## Interactions": each form, as the reference writes it.
FORMS = [
    # (quoted example, variable, buttons, input hint, multiple)
    ("?[%{{var}} Option A | Option B | Option C]", "var", ["Option A", "Option B", "Option C"],
     None, False),
    ("?[%{{var}} Option A || Option B || Option C]", "var", ["Option A", "Option B", "Option C"],
     None, True),
    ("?[%{{var}} ...Enter your answer]", "var", [], "Enter your answer", False),
    ("?[%{{var}} Option A | Option B | ...Other, please specify]", "var", ["Option A", "Option B"],
     "Other, please specify", False),
    ("?[%{{var}} Option A || Option B || ...Other, please specify]", "var",
     ["Option A", "Option B"], "Other, please specify", True),
    ("?[Continue]", None, ["Continue"], None, False),
    ("?[Option A | Option B]", None, ["Option A", "Option B"], None, False),
    ("?[...Enter your answer]", None, [], "Enter your answer", False),
]  # fmt: skip


@pytest.mark.parametrize(("text", "variable", "buttons", "hint", "multiple"), FORMS)
def test_each_documented_interaction_form(
    mf034: Runtime,
    text: str,
    variable: str | None,
    buttons: list[str],
    hint: str | None,
    multiple: bool,
) -> None:
    workspace, problems = on_ai_shifu(text + "\n")
    # The learner page shows two forms otherwise (tests/hosts/test_learner_page.py):
    # remark-flow 1.0.0-alpha.7 has no multiple choice, and neither version reads `...`
    # as an input without a binding.
    otherwise = multiple or (variable is None and hint is not None)
    assert problems == ([("page-reads-otherwise", "warning")] if otherwise else [])
    found = workspace.snapshot.entry(URI)
    assert found is not None
    [interaction] = found[1].interactions
    assert interaction.binding == variable and interaction.multiple == multiple
    assert [c.label for c in interaction.choices] == buttons and interaction.input == hint
    parsed = mf034.parse(text)
    assert (parsed["variable"], parsed["buttons"], parsed["question"]) == (variable, buttons, hint)
    assert parsed["multi"] == multiple


def test_a_blank_variable_name_is_an_error() -> None:
    # MF1: "Do not leave the variable name blank as a substitute for no-variable syntax."
    assert on_ai_shifu("?[%{{}} Option A | Option B]\n")[1] == [("marker-empty", "error")]


def test_a_learner_variable_read_without_an_interaction_is_reported() -> None:
    # MF1: "Do not reference a learner-answer variable without a corresponding
    # variable-backed interaction and metadata entry".
    assert on_ai_shifu("The learner goal is {{learner_goal}}.\n")[1] == [
        ("unbound-reference", "warning")
    ]
    asked = "?[%{{learner_goal}} ...One-sentence goal]\n\nThe learner goal is {{learner_goal}}.\n"
    assert on_ai_shifu(asked)[1] == []


def test_a_fixed_block_needs_its_closing_line() -> None:
    # MF1, "## Deterministic Blocks": "Multi-line fixed text: `!===` Line 1 Line 2 `!===`".
    assert on_ai_shifu("!===\nLine 1\nLine 2\n!===\n")[1] == []
    assert on_ai_shifu("!===\nLine 1\nLine 2\n")[1] == [("fixed-output-unclosed", "warning")]


def test_a_backslash_shows_the_notation(mf034: Runtime) -> None:
    # MF2: "A lesson that teaches MarkdownFlow writes `\\?[A | B]` to show the notation
    # rather than use it. Inside a fenced code block it is also left alone."
    for text in ("\\?[A | B]\n", "```\n?[%{{var}} A | B]\n```\n"):
        assert scan(text).interactions == () and on_ai_shifu(text)[1] == []
    assert mf034.extract("```\n?[%{{var}} A | B]\n```\n") == []


def test_option_delimiters_escaped_on_the_production_runtime(mf034: Runtime) -> None:
    # MF2: "Options cannot contain `|`, `//`, `]` or a newline [...] An option carrying a
    # URL (`https://...`) [...] breaks the question." That is the 2.0 engine; on the
    # production runtime (0.3.4) an escaped delimiter is ordinary option text.
    text = "?[%{{site}} https:\\/\\/example.org | a\\]b | A\\|B]"
    workspace, problems = on_ai_shifu(text + "\n")
    assert problems == []
    found = workspace.snapshot.entry(URI)
    assert found is not None
    [interaction] = found[1].interactions
    labels = [c.label for c in interaction.choices]
    assert labels == ["https://example.org", "a]b", "A|B"] == mf034.parse(text)["buttons"]
