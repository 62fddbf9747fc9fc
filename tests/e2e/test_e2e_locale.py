"""Messages in the author's language (issue 12): the client's `locale` in `initialize`
chooses Chinese or English for diagnostics, hovers and code action titles; the
`mfls.locale` setting overrides it, and a change of the setting republishes."""

from __future__ import annotations

from pathlib import Path

from e2e_session import capabilities, session, uri_of, wait_until, write_files
from lsprotocol import types as t

LESSON = "?[%{{ goal }} A | B]\n\nUse {{ goal }} and {{ topic }}.\n"
COURSE_FILE = 'colour = "red"\n'


def _whole(text: str) -> t.Range:
    lines = text.split("\n")
    return t.Range(
        start=t.Position(line=0, character=0),
        end=t.Position(line=len(lines) - 1, character=len(lines[-1])),
    )


async def _titles(s: object, uri: str) -> set[str]:
    client = s.client  # type: ignore[attr-defined]
    found = await client.text_document_code_action_async(
        t.CodeActionParams(
            text_document=t.TextDocumentIdentifier(uri=uri),
            range=_whole(LESSON),
            context=t.CodeActionContext(diagnostics=[]),
        )
    )
    return {a.title for a in found or []}


async def test_a_chinese_client_gets_chinese_messages(tmp_path: Path) -> None:
    write_files(tmp_path, {"a.md": LESSON, "mfcourse.toml": COURSE_FILE})
    async with session(capabilities("neovim@v0.11"), [tmp_path], locale="zh-CN") as s:
        await s.indexed()
        uri = s.open(tmp_path / "a.md")
        report = await s.pull(uri)
        messages = {str(d.code): d.message for d in report.items}
        assert messages["legacy-binding"].startswith(
            "`%{{...}}` 是旧的绑定写法：请改为 `{{ goal }}`。"
        )
        assert messages["unbound-reference"].startswith("没有任何课时提问“topic”")
        course_file = await s.pull(uri_of(tmp_path / "mfcourse.toml"))
        [problem] = course_file.items
        assert problem.message.startswith("未知设置 `colour`，已忽略。")

        hover = await s.client.text_document_hover_async(
            t.HoverParams(
                text_document=t.TextDocumentIdentifier(uri=uri),
                position=t.Position(line=2, character=8),
            )
        )
        assert hover is not None and isinstance(hover.contents, t.MarkupContent)
        assert "**引用**：AI 会读取这个问题已记住的回答。" in hover.contents.value
        assert f"绑定位置：[a.md:1]({uri}#L1)。" in hover.contents.value

        titles = await _titles(s, uri)
        assert "把旧写法绑定转换为 {{ goal }}" in titles
        assert "在首次使用前用交互提问“topic”" in titles


async def test_the_locale_setting_wins_and_its_change_republishes(tmp_path: Path) -> None:
    write_files(tmp_path, {"a.md": LESSON})
    options = {"mfls": {"locale": "en"}}
    caps = capabilities("neovim@v0.11", pull=False)
    async with session(caps, [tmp_path], locale="zh-Hans-CN", initialization_options=options) as s:
        await s.indexed()
        uri = s.open(tmp_path / "a.md")
        english = await s.pushed(uri, lambda items: len(items) == 2)
        unbound = [d for d in english if d.code == "unbound-reference"]
        assert unbound[0].message.startswith("No lesson asks “topic”, so the AI may lack")
        assert "Convert legacy binding to {{ goal }}" in await _titles(s, uri)

        s.client.set_configuration({"mfls": {"locale": "zh-CN"}})
        s.client.workspace_did_change_configuration(
            t.DidChangeConfigurationParams(settings={"mfls": {"locale": "zh-CN"}})
        )
        await wait_until(
            lambda: any(
                d.message.startswith("没有任何课时提问") for d in s.client.diagnostics.get(uri, [])
            )
        )
        assert "把旧写法绑定转换为 {{ goal }}" in await _titles(s, uri)
