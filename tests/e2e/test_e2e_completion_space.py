"""Completion after `{{ ` (issue 22): VS Code closes its list when a space is typed, so the
space is a trigger character; typed inside an open `{{` it brings the course's keys back,
the first of them preselected; anywhere else it gets no list."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from e2e_session import capabilities, session, uri_of, write_files
from lsprotocol import types as t
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

LESSON = (
    "# Welcome\n"
    "\n"
    "?[{{ What would you like to learn? }} Python | JavaScript]\n"
    "\n"
    "Ask again: {{ \n"
    "\n"
    "Plain words here \n"
    "\n"
    "?[ \n"
    "\n"
    "Done {{ level }} \n"
)
OTHER = "# Next\n\n?[{{ level }} Easy | Hard]\n"
KEY = "What would you like to learn?"


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("course")
    write_files(
        root,
        {
            "mfcourse.toml": (
                'name = "Demo"\nhost = "ai-shifu"\ntarget = "current"\n'
                'lessons = ["01.md", "02.md"]\n'
            ),
            "01.md": LESSON,
            "02.md": OTHER,
        },
    )
    return root


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(course: Path) -> AsyncIterator[LanguageClient]:
    async with session(capabilities("visual-studio-code"), [course]) as started:
        assert started.result is not None
        completion = started.result.capabilities.completion_provider
        assert completion is not None and " " in (completion.trigger_characters or [])
        await started.indexed()
        started.open(course / "01.md", LESSON)
        yield started.client


async def after_space(client: LanguageClient, course: Path, line: int) -> t.CompletionList | None:
    """Completion as VS Code asks it when a space was just typed at the end of `line`."""
    character = len(LESSON.splitlines()[line])
    result = await client.text_document_completion_async(
        t.CompletionParams(
            text_document=t.TextDocumentIdentifier(uri=uri_of(course / "01.md")),
            position=t.Position(line=line, character=character),
            context=t.CompletionContext(
                trigger_kind=t.CompletionTriggerKind.TriggerCharacter, trigger_character=" "
            ),
        )
    )
    assert result is None or isinstance(result, t.CompletionList)
    return result


async def test_a_space_inside_an_open_marker_offers_the_keys(
    client: LanguageClient, course: Path
) -> None:
    result = await after_space(client, course, 4)  # "Ask again: {{ "
    assert result is not None
    labels = [item.label for item in result.items]
    assert {KEY, "level", "sys_user_nickname"} <= set(labels)
    ranked = sorted(result.items, key=lambda item: item.sort_text or "")
    assert ranked[0].label == KEY  # asked in this lesson: first
    assert [item.label for item in result.items if item.preselect] == [KEY]
    edit = ranked[0].text_edit
    assert isinstance(edit, t.TextEdit)
    assert edit.range.start == t.Position(line=4, character=14)  # after the space typed
    assert "}}" in edit.new_text.replace("\\", "")


@pytest.mark.parametrize(
    ("line", "where"),
    [(6, "plain words"), (8, "after an interaction's `?[`"), (10, "after a closed marker")],
)
async def test_a_space_anywhere_else_gets_no_list(
    client: LanguageClient, course: Path, line: int, where: str
) -> None:
    result = await after_space(client, course, line)
    assert result is None or not result.items, f"{where}: {result}"
