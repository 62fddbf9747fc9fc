"""From a cold start, the first problems a client is given are `mfls check`'s: a request
on a document whose course is not indexed yet waits for it (`mfls.lsp.course_gate`), past
the bound a pulled diagnostic is answered ServerCancelled with `retriggerRequest`, and a
push client is published nothing before the course is known. Real server processes, a
course of 3 and of 1,000 lessons unpacked from an AI-Shifu export."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types as t
from pygls.exceptions import JsonRpcException

from mfls.lsp.course_gate import INDEX_DELAY_ENV, SERVER_CANCELLED, WAIT_BOUND
from tests.kit.cold_course import Problem, as_problems, checked, unpacked_course
from tests.kit.lsp_client import Session, capabilities, session
from tests.kit.waiting import wait_until

PULL_CLIENT = "neovim@v0.11.0"
PUSH_CLIENT = "neovim@v0.7.0"

Course = tuple[Path, list[Path], dict[Path, list[Problem]]]

# Waits are measured against the course gate's bound.
pytestmark = pytest.mark.alone


def made(folder: Path, lessons: int) -> Course:
    root, files = unpacked_course(folder, lessons)
    return root, files, checked(root)


@pytest.fixture(scope="module", params=[3, 1000], ids=["3 lessons", "1000 lessons"])
def course(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Course:
    """A course unpacked once per module (no test edits it), with `mfls check`'s problems."""
    return made(tmp_path_factory.mktemp("cold"), request.param)


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Course:
    return made(tmp_path_factory.mktemp("small"), 3)


def opened_lessons(files: list[Path]) -> list[Path]:
    """The first lesson, and an odd one near the middle: it reads a key another lesson
    asks and leaves a fixed output open."""
    return [files[0], files[len(files) // 2 | 1]]


async def pull_as_a_client_does(s: Session, uri: str) -> tuple[Any, int]:
    """Pull, asking again while the server cancels with `retriggerRequest` (as Neovim and
    VS Code do); the report and how many times the server cancelled."""
    cancelled = 0
    while True:
        try:
            return await s.pulled(uri), cancelled
        except JsonRpcException as error:
            assert error.code == SERVER_CANCELLED, error
            assert error.data == {"retriggerRequest": True}
            cancelled += 1
            assert cancelled < 20


async def test_the_first_pulled_diagnostics_are_those_of_mfls_check(course: Course) -> None:
    root, files, expected = course
    async with session(capabilities(PULL_CLIENT), [root]) as s:
        opened = opened_lessons(files)
        uris = [s.open(path) for path in opened]
        for path, uri in zip(opened, uris, strict=True):
            report, _ = await pull_as_a_client_does(s, uri)
            text = path.read_text(encoding="utf-8")
            assert as_problems(text, report.items, s.encoding) == expected.get(path, [])
    assert expected[opened[0]][0].code == "legacy-profile-key"
    assert [p.code for p in expected[opened[1]]] == ["fixed-output-unclosed"]


async def test_the_first_pushed_diagnostics_are_those_of_mfls_check(course: Course) -> None:
    root, files, expected = course
    async with session(capabilities(PUSH_CLIENT), [root]) as s:
        opened = opened_lessons(files)
        uris = [s.open(path) for path in opened]
        for path, uri in zip(opened, uris, strict=True):
            await wait_until(lambda uri=uri: any(p.uri == uri for p in s.published))
            first = next(p for p in s.published if p.uri == uri)
            text = path.read_text(encoding="utf-8")
            assert as_problems(text, first.diagnostics, s.encoding) == expected[path]
        await s.indexed()
        await asyncio.sleep(0.5)
        for path, uri in zip(opened, uris, strict=True):
            text = path.read_text(encoding="utf-8")
            for sent in (p for p in s.published if p.uri == uri):
                assert as_problems(text, sent.diagnostics, s.encoding) == expected[path]


def hover_params(uri: str) -> t.HoverParams:
    # On `sys_user_nickname` in `?[%{{sys_user_nickname}} ...`: a key the host provides.
    return t.HoverParams(
        text_document=t.TextDocumentIdentifier(uri=uri), position=t.Position(line=0, character=6)
    )


async def test_a_request_waits_for_its_course_and_is_answered_under_it(small: Course) -> None:
    root, files, expected = small
    delay = 1.5
    async with session(
        capabilities(PULL_CLIENT), [root], server_env={INDEX_DELAY_ENV: str(delay)}
    ) as s:
        uri = s.open(files[0])
        began = time.monotonic()
        report, hover = await asyncio.gather(
            s.pulled(uri), s.client.text_document_hover_async(hover_params(uri))
        )
        waited = time.monotonic() - began
        text = files[0].read_text(encoding="utf-8")
        assert as_problems(text, report.items, s.encoding) == expected[files[0]]
        assert waited >= delay - 0.1
        await s.indexed()
        assert hover == await s.client.text_document_hover_async(hover_params(uri))
        assert hover is not None


async def test_past_the_bound_a_pull_is_cancelled_for_the_client_to_ask_again(
    small: Course,
) -> None:
    root, files, expected = small
    delay = WAIT_BOUND + 1.5
    async with session(
        capabilities(PULL_CLIENT), [root], server_env={INDEX_DELAY_ENV: str(delay)}
    ) as s:
        uri = s.open(files[0])
        began = time.monotonic()
        info = t.ExecuteCommandParams(command="mfls.courseInfo", arguments=[uri])
        pulled, hover, command = await asyncio.gather(
            s.pulled(uri),
            s.client.text_document_hover_async(hover_params(uri)),
            s.client.workspace_execute_command_async(info),
            return_exceptions=True,
        )
        waited = time.monotonic() - began
        assert isinstance(pulled, JsonRpcException), pulled
        assert pulled.code == SERVER_CANCELLED
        assert pulled.data == {"retriggerRequest": True}
        assert WAIT_BOUND - 0.1 <= waited < delay
        assert hover is None  # past the bound: the empty answer, never one under a guess
        assert isinstance(command, JsonRpcException), command
        assert command.code == t.LSPErrorCodes.RequestFailed
        assert "still being indexed" in command.message
        report = await s.pulled(uri)
        text = files[0].read_text(encoding="utf-8")
        assert as_problems(text, report.items, s.encoding) == expected[files[0]]
        assert time.monotonic() - began >= delay - 0.1


async def test_a_push_client_is_sent_nothing_before_the_course_is_known(small: Course) -> None:
    root, files, expected = small
    delay = 2.0
    async with session(
        capabilities(PUSH_CLIENT),
        [root],
        server_env={INDEX_DELAY_ENV: str(delay)},
        initialization_options={"diagnosticDelay": 0},
    ) as s:
        began = time.monotonic()
        uri = s.open(files[0])
        await wait_until(lambda: any(p.uri == uri for p in s.published))
        assert time.monotonic() - began >= delay - 0.1
        first = next(p for p in s.published if p.uri == uri)
        text = files[0].read_text(encoding="utf-8")
        assert as_problems(text, first.diagnostics, s.encoding) == expected[files[0]]
