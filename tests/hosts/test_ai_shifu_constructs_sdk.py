"""What mfls says of three AI-Shifu constructs, against markdown-flow 0.4.2 (the SDK) and
the ai-shifu source that uses it:

- an interaction without a variable stores nothing and its answer goes to the
  conversation (the hover `hover.no-variable`; no question counted);
- fixed output: which text markdown-flow shows without the AI (never translated) and
  which it tells the AI to output as written, translating it when an output language is
  set (`hover.fixed.alone`, `hover.fixed.told`); markers inside are substituted;
- the gate values: ai-shifu/ai-shifu `src/api/flaskr/service/learn/learn_funcs.py`
  `_is_access_gate_interaction` (commit b3d3e4c89688539ac2c9f1ee8ba1a9aa968c2171) gates
  the lesson when `InteractionParser().parse(content)["buttons"]` holds a button whose
  `value` is exactly `"_sys_pay"` or `"_sys_login"`; mfls reads each option's value as
  that parser does (markdown-flow 0.3.1, 0.3.4 and 0.4.2) and calls a gate exactly those.
"""

from __future__ import annotations

import pytest
from markdown_flow import InteractionParser, MarkdownFlow, ProcessMode
from markdown_flow.enums import BlockType
from runtimes import Runtime

from mfls.disk.memory import MemoryDisk
from mfls.features.course_info import course_figures
from mfls.features.course_map import course_map
from mfls.features.gate_values import GATES, unknown, values
from mfls.features.messages import EN, say
from mfls.syntax.scanner import scan
from mfls.workspace.ai_shifu_structure import scanned_structure
from mfls.workspace.workspace import Workspace

NO_VARIABLE = ["?[Continue]", "?[A||B]", "?[...Your thoughts]", "?[A | B | ...Other]"]


@pytest.mark.parametrize("interaction", NO_VARIABLE)
def test_an_interaction_without_a_variable_stores_nothing(interaction: str) -> None:
    flow = MarkdownFlow(f"Intro\n\n{interaction}\n\nAfter")
    assert flow.extract_variables() == []
    assert InteractionParser().parse(interaction).get("variable") is None
    answered = flow.process(1, ProcessMode.COMPLETE, user_input={"input": ["Mine"]})
    assert answered.variables == {}  # type: ignore[union-attr]
    assert answered.metadata["answer"] == ["Mine"]  # type: ignore[union-attr]
    # "the answer goes to the conversation": the AI gets it as the learner's message
    context = [{"role": "assistant", "content": interaction, "user_answer": "Mine"}]
    assert flow._transform_context_messages(context, {})[0] == {"role": "user", "content": "Mine"}
    [found] = scan(interaction).interactions
    assert found.binding is None
    assert "stored nowhere" in say(EN, "hover.no-variable")


def test_no_question_is_counted_for_them() -> None:
    lesson = "\n\n".join([*NO_VARIABLE, "?[%{{level}} Easy | Hard]", "Use {{level}}."]) + "\n"
    files = {"/course/a.md": lesson, "/course/mfcourse.toml": 'host = "ai-shifu"\n'}
    workspace = Workspace(disk=MemoryDisk(files))
    workspace.set_folders(["/course"])
    workspace.index_all()
    [course] = workspace.snapshot.courses.values()
    assert course_figures(course).questions == 1
    assert [lane.key for lane in course_map(course).keys] == ["level"]
    assert MarkdownFlow(lesson).extract_variables() == ["level"]


def _user_message(flow: MarkdownFlow, block: int) -> str:
    messages = flow.get_content_messages(block, {"k": "VALUE"})
    return str([m for m in messages if m["role"] == "user"][-1]["content"])


@pytest.mark.parametrize(
    ("text", "alone"),
    [
        ("===Fixed {{k}}===", True),
        ("!===\nFixed {{k}}\n!===", True),
        ("!===Fixed {{k}}!===", False),
        ("Intro\n===Fixed {{k}}===", False),
        ("Say ===Fixed {{k}}=== now", False),
        ("Say !===Fixed {{k}}!=== now", False),
    ],
)
def test_which_fixed_output_the_ai_may_translate(text: str, alone: bool) -> None:
    [span] = [s for b in scanned_structure(text, scan(text)).blocks for s in b.spans]
    assert span.alone is alone
    flow = MarkdownFlow(text).set_output_language("fr-FR")
    [block] = flow.get_all_blocks()
    if alone:
        # shown without the AI: no prompt, the text as written, marker substituted
        assert block.block_type is BlockType.PRESERVED_CONTENT
        shown = flow.process(0, ProcessMode.COMPLETE, variables={"k": "VALUE"})
        assert "".join(r.content for r in shown) == "Fixed VALUE"  # type: ignore[union-attr]
    else:
        assert block.block_type is BlockType.CONTENT
        seen = _user_message(flow, 0)
        assert "<原样输出>Fixed VALUE</原样输出>" in seen
        assert "translate content inside tags to fr-FR" in seen
        assert "keep content with all formatting" in _user_message(MarkdownFlow(text), 0)


@pytest.mark.parametrize("text", ["===?[%{{k}} A | B]===", "Say !===?[%{{k}} A | B]!=== now"])
def test_an_interaction_inside_fixed_output_is_read(text: str) -> None:
    """`hover.fixed.markers` and docs/syntax.md rule 28: the SDK cuts the block at the
    interaction and binds its variable; the scanner reads the same interaction, and no
    fixed output is left around it."""
    kinds = [b.block_type for b in MarkdownFlow(text).get_all_blocks()]
    assert BlockType.INTERACTION in kinds and BlockType.PRESERVED_CONTENT not in kinds
    assert MarkdownFlow(text).extract_variables() == ["k"]
    [found] = scan(text).interactions
    assert found.binding == "k"
    assert not [s for b in scanned_structure(text, scan(text)).blocks for s in b.spans]


GATE_TEXTS = [
    "?[Pay now//_sys_pay]",
    "?[Log in//_sys_login | Later]",
    "?[%{{k}} Pay//_sys_pay]",
    "?[_sys_pay]",
    "?[Pay // _sys_pay ]",
    "?[Pay//_sys_Pay]",
    "?[Pay//_sys_later || Go//_sys_login]",
    "?[Pay//sys_pay | x//_sysx]",
]


@pytest.mark.parametrize("text", GATE_TEXTS)
def test_gate_values_are_the_values_the_parser_reads(text: str, runtime: Runtime) -> None:
    """On every release mfls models (0.3.1 and 0.3.4, which ai-shifu pins, and 0.4.2)."""
    parsed = runtime.parse(text)["values"]
    [interaction] = scan(text).interactions
    ours = [found.value for found in values(interaction)]
    assert ours == parsed
    gates = [value in GATES for value in ours]
    assert gates == [value in ("_sys_pay", "_sys_login") for value in parsed]
    for value, gate in zip(ours, gates, strict=True):
        assert unknown(value) is (not gate and value.strip().startswith("_sys_"))
