"""Code lenses, document links and `?[` snippets through a real server process."""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_session import capabilities, session, uri_of, wait_until, write_files
from lsprotocol import types as t

A = "# A\n\n?[{{ name }} ...your name]\n\nHi {{ name }}, 😀 {{ name }}\n"
B = "Bye {{ name }}\n\nPick ?[\n"
TOML = 'lessons = ["a.md", "*.md"]\n'


def files(root: Path) -> None:
    write_files(root, {"mfcourse.toml": TOML, "a.md": A, "b.md": B})


@pytest.mark.asyncio
async def test_code_lens_counts_and_carries_the_reads(tmp_path: Path) -> None:
    files(tmp_path)
    async with session(capabilities("visual-studio-code"), [tmp_path]) as s:
        assert s.result is not None
        assert s.result.capabilities.code_lens_provider is not None
        await s.indexed()
        uri = s.open(tmp_path / "a.md")
        s.open(tmp_path / "b.md")
        lenses = await s.client.text_document_code_lens_async(
            t.CodeLensParams(text_document=t.TextDocumentIdentifier(uri=uri))
        )
        assert lenses is not None
        (lens,) = lenses
        assert lens.range == t.Range(start=t.Position(2, 5), end=t.Position(2, 9))
        assert lens.command is not None
        assert lens.command.title == "asked here · read 3 times in 2 lessons"
        assert lens.command.command == "mfls.showReferences"
        target, position, reads = lens.command.arguments or []
        assert target == uri and position == {"line": 2, "character": 5}
        # UTF-16 columns: the emoji counts two (20 in code points)
        assert [(r["uri"], r["range"]["start"]) for r in reads] == [
            (uri, {"line": 4, "character": 6}),
            (uri, {"line": 4, "character": 21}),
            (uri_of(tmp_path / "b.md"), {"line": 0, "character": 7}),
        ]
        commands = s.result.capabilities.execute_command_provider
        assert commands is None or "mfls.showReferences" not in commands.commands


@pytest.mark.asyncio
async def test_document_links_of_the_course_file(tmp_path: Path) -> None:
    files(tmp_path)
    async with session(capabilities("visual-studio-code"), [tmp_path]) as s:
        await s.indexed()
        links = await s.client.text_document_document_link_async(
            t.DocumentLinkParams(
                text_document=t.TextDocumentIdentifier(uri=uri_of(tmp_path / "mfcourse.toml"))
            )
        )
        assert links is not None
        assert [(x.range.start.character, x.range.end.character, x.target) for x in links] == [
            (11, 17, uri_of(tmp_path / "a.md")),
            (19, 25, uri_of(tmp_path / "a.md")),
        ]
        assert links[1].tooltip == "2 files: a.md, b.md. Opens the first."


@pytest.mark.asyncio
@pytest.mark.parametrize("snippets", [True, False])
async def test_snippets_after_the_opener(tmp_path: Path, snippets: bool) -> None:
    files(tmp_path)
    caps = capabilities("visual-studio-code")
    assert caps.text_document and caps.text_document.completion
    assert caps.text_document.completion.completion_item
    caps.text_document.completion.completion_item.snippet_support = snippets
    async with session(caps, [tmp_path]) as s:
        await s.indexed()
        uri = s.open(tmp_path / "b.md")
        result = await s.client.text_document_completion_async(
            t.CompletionParams(
                text_document=t.TextDocumentIdentifier(uri=uri),
                position=t.Position(2, 7),
                context=t.CompletionContext(
                    trigger_kind=t.CompletionTriggerKind.TriggerCharacter, trigger_character="["
                ),
            )
        )
        assert isinstance(result, t.CompletionList)
        assert [i.label for i in result.items] == ["single choice", "multiple choice", "input"]
        single = result.items[0]
        assert single.kind == t.CompletionItemKind.Snippet
        assert isinstance(single.text_edit, t.TextEdit)
        assert single.text_edit.range == t.Range(start=t.Position(2, 7), end=t.Position(2, 7))
        if snippets:
            assert single.insert_text_format == t.InsertTextFormat.Snippet
            assert single.text_edit.new_text == "{{ ${1:question} }} ${2:Yes} | ${3:No}]$0"
        else:
            assert single.insert_text_format == t.InsertTextFormat.PlainText
            assert single.text_edit.new_text == "{{ question }} Yes | No]"


@pytest.mark.asyncio
async def test_lenses_are_refreshed_when_another_lesson_changes(tmp_path: Path) -> None:
    files(tmp_path)
    caps = capabilities("visual-studio-code")
    assert caps.workspace is not None
    caps.workspace.code_lens = t.CodeLensWorkspaceClientCapabilities(refresh_support=True)
    async with session(caps, [tmp_path]) as s:
        await s.indexed()
        a = s.open(tmp_path / "a.md")
        b = s.open(tmp_path / "b.md")
        await wait_until(lambda: s.lens_refreshes >= 1)
        before = s.lens_refreshes
        s.change(
            b,
            [
                t.TextDocumentContentChangePartial(
                    range=t.Range(start=t.Position(0, 0), end=t.Position(0, 0)),
                    text="And {{ name }}. ",
                )
            ],
        )
        await wait_until(lambda: s.lens_refreshes > before)
        lenses = await s.client.text_document_code_lens_async(
            t.CodeLensParams(text_document=t.TextDocumentIdentifier(uri=a))
        )
        assert lenses is not None and lenses[0].command is not None
        assert lenses[0].command.title == "asked here · read 4 times in 2 lessons"
