"""What one installed markdown-flow reads: run in-process (0.4.2, the test extras) or as
`python sdk_worker.py` inside the environment of another release (0.3.1 or 0.3.4, see
scripts/setup-test-env.sh), one JSON request a line on stdin, one answer a line out.

Imports nothing of mfls: it must run where only markdown-flow is installed.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def extract(text: str) -> list[str]:
    """The keys `MarkdownFlow.extract_variables` finds, in its order."""
    from markdown_flow import MarkdownFlow

    return list(MarkdownFlow(text).extract_variables())


def parse(text: str) -> dict[str, Any]:
    """`InteractionParser().parse(text)`, as plain JSON: the bound variable (None when
    it saves nothing), the buttons' display texts and values, the input hint."""
    from markdown_flow import InteractionParser

    parsed = InteractionParser().parse(text)
    buttons = parsed.get("buttons") or []
    return {
        "type": getattr(parsed.get("type"), "value", None),
        "variable": parsed.get("variable"),
        "buttons": [b["display"] for b in buttons],
        "values": [b["value"] for b in buttons],
        "question": parsed.get("question"),
        "multi": bool(parsed.get("is_multi_select")),
    }


def sees(text: str, variables: dict[str, str]) -> str:
    """The user message markdown-flow builds for the first block: what the AI sees."""
    from markdown_flow import MarkdownFlow

    messages = MarkdownFlow(text).get_content_messages(0, variables)
    return str([m for m in messages if m["role"] == "user"][-1]["content"])


def blocks(text: str) -> list[tuple[str, bool]]:
    """`MarkdownFlow.get_all_blocks`: each block's text (code blocks put back) and whether
    it is preserved content (fixed output)."""
    from markdown_flow import MarkdownFlow
    from markdown_flow.enums import BlockType

    flow = MarkdownFlow(text)
    # The SDK splits with code blocks replaced by placeholders; put them back.
    restore = flow._preprocessor.restore_code_blocks
    return [
        (restore(b.content), b.block_type is BlockType.PRESERVED_CONTENT)
        for b in flow.get_all_blocks()
    ]


def version() -> str:
    from importlib.metadata import version as of

    return of("markdown-flow")


def answer(request: dict[str, Any]) -> Any:
    op = request["op"]
    if op == "extract":
        return extract(request["text"])
    if op == "parse":
        return parse(request["text"])
    if op == "blocks":
        return blocks(request["text"])
    if op == "sees":
        return sees(request["text"], request["variables"])
    return version()


def main() -> None:
    for line in sys.stdin:
        try:
            result: Any = {"ok": answer(json.loads(line))}
        except Exception as error:  # the SDK's own failure, reported as data
            result = {"error": f"{type(error).__name__}: {error}"}
        sys.stdout.write(json.dumps(result) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
