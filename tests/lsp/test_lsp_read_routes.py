"""Every READ route answers from its snapshot alone: run through the dispatcher
(`routes.bound`) on an in-memory course, with the file system out of reach (the feature
tests' guard, `tests.kit.course.no_disk`), each gives its real answer and touches no file."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from lsprotocol import types as t
from pytest_lsp import client_capabilities

from mfls.lsp import routes
from mfls.lsp.capabilities import Capabilities
from mfls.lsp.diagnostic_memo import DiagnosticMemo
from mfls.lsp.server import MflsServer
from mfls.lsp.state import ServerState
from tests.kit import course as course_kit

LESSON_1 = "# Welcome\n\n?[{{ topic }} Python | JavaScript]\n\nUse {{ topic }} and {{ topc }}.\n"
LESSON_2 = "# Next\n\nMore about {{ topic }}.\n\n?[\n"
COURSE = 'name = "Demo"\nlessons = ["01.md", "02.md"]\n'
ON_TOPIC = t.Position(line=4, character=8)  # inside `{{ topic }}` of line 5
AFTER_INTERACTION = t.Position(line=4, character=2)  # after `?[` in 02.md


def _doc(uri: str) -> t.TextDocumentIdentifier:
    return t.TextDocumentIdentifier(uri=uri)


def _params(one: str, two: str, course_file: str) -> dict[str, Any]:
    """Params of every READ route by method (`one` open, `two` closed)."""
    first = t.TextDocumentIdentifier(uri=one)
    whole = t.Range(start=t.Position(line=0, character=0), end=t.Position(line=6, character=0))
    return {
        t.TEXT_DOCUMENT_COMPLETION: t.CompletionParams(
            text_document=_doc(two), position=AFTER_INTERACTION
        ),
        t.COMPLETION_ITEM_RESOLVE: t.CompletionItem(
            label="topic",
            data={"uri": one, "offset": LESSON_1.index("topic }} and"), "key": "topic"},
        ),
        t.TEXT_DOCUMENT_HOVER: t.HoverParams(text_document=first, position=ON_TOPIC),
        t.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL: t.SemanticTokensParams(text_document=first),
        t.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE: t.SemanticTokensRangeParams(
            text_document=first, range=whole
        ),
        t.TEXT_DOCUMENT_DEFINITION: t.DefinitionParams(text_document=first, position=ON_TOPIC),
        t.TEXT_DOCUMENT_DECLARATION: t.DeclarationParams(text_document=first, position=ON_TOPIC),
        t.TEXT_DOCUMENT_REFERENCES: t.ReferenceParams(
            text_document=first,
            position=ON_TOPIC,
            context=t.ReferenceContext(include_declaration=True),
        ),
        t.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT: t.DocumentHighlightParams(
            text_document=first, position=ON_TOPIC
        ),
        t.TEXT_DOCUMENT_DOCUMENT_SYMBOL: t.DocumentSymbolParams(text_document=first),
        t.TEXT_DOCUMENT_FOLDING_RANGE: t.FoldingRangeParams(text_document=first),
        t.WORKSPACE_SYMBOL: t.WorkspaceSymbolParams(query="topic"),
        t.TEXT_DOCUMENT_CODE_LENS: t.CodeLensParams(text_document=first),
        t.TEXT_DOCUMENT_INLAY_HINT: t.InlayHintParams(text_document=first, range=whole),
        t.TEXT_DOCUMENT_DOCUMENT_LINK: t.DocumentLinkParams(text_document=_doc(course_file)),
        t.TEXT_DOCUMENT_PREPARE_RENAME: t.PrepareRenameParams(
            text_document=first, position=ON_TOPIC
        ),
        t.TEXT_DOCUMENT_DIAGNOSTIC: t.DocumentDiagnosticParams(text_document=first),
        t.WORKSPACE_DIAGNOSTIC: t.WorkspaceDiagnosticParams(previous_result_ids=[]),
        "mfls.courseFiles": [],
        "mfls.courseInfo": [one],
        "mfls.courseKeys": [one],
        "mfls.courseMap": [{"uri": two}],
    }


READ_METHODS = {
    t.TEXT_DOCUMENT_COMPLETION,
    t.COMPLETION_ITEM_RESOLVE,
    t.TEXT_DOCUMENT_HOVER,
    t.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
    t.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE,
    t.TEXT_DOCUMENT_DEFINITION,
    t.TEXT_DOCUMENT_DECLARATION,
    t.TEXT_DOCUMENT_REFERENCES,
    t.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT,
    t.TEXT_DOCUMENT_DOCUMENT_SYMBOL,
    t.TEXT_DOCUMENT_FOLDING_RANGE,
    t.WORKSPACE_SYMBOL,
    t.TEXT_DOCUMENT_CODE_LENS,
    t.TEXT_DOCUMENT_INLAY_HINT,
    t.TEXT_DOCUMENT_DOCUMENT_LINK,
    t.TEXT_DOCUMENT_PREPARE_RENAME,
    t.TEXT_DOCUMENT_DIAGNOSTIC,
    t.WORKSPACE_DIAGNOSTIC,
    "mfls.courseFiles",
    "mfls.courseInfo",
    "mfls.courseKeys",
    "mfls.courseMap",
}
READ_ROUTES = [route for route in routes.ROUTES if route.mode is routes.Mode.READ]


def test_the_read_routes_are_the_ones_the_design_names() -> None:
    assert {route.method for route in READ_ROUTES} == READ_METHODS
    mutating = {route.method for route in routes.ROUTES if route.mode is routes.Mode.MUTATE}
    assert {
        t.TEXT_DOCUMENT_DID_CHANGE,
        t.INITIALIZE,
        t.WORKSPACE_DID_CHANGE_WATCHED_FILES,
    } <= mutating
    disk = {route.method for route in routes.ROUTES if route.mode is routes.Mode.DISK}
    assert disk == {
        t.TEXT_DOCUMENT_RENAME,
        t.TEXT_DOCUMENT_CODE_ACTION,
        t.WORKSPACE_WILL_RENAME_FILES,
    }


@contextmanager
def recorded_no_disk(touched: list[str]) -> Iterator[None]:
    """`tests.kit.course.no_disk`, each refused call also recorded (a handler that caught the
    failure would otherwise hide it)."""
    with course_kit.no_disk():
        saved = [(module, name, getattr(module, name)) for module, name in course_kit.GUARDED]

        def recording(name: str, refuse: Callable[..., Any]) -> Callable[..., Any]:
            def call(*args: Any, **kwargs: Any) -> Any:
                touched.append(name)
                return refuse(*args, **kwargs)

            return call

        for module, name, refuse in saved:
            setattr(module, name, recording(f"{module.__name__}.{name}", refuse))
        try:
            yield
        finally:
            for module, name, refuse in saved:
                setattr(module, name, refuse)


@pytest.fixture(scope="module")
def server_and_params() -> tuple[MflsServer, dict[str, Any]]:
    kit = course_kit.course("01.md", LESSON_1, "02.md", LESSON_2, config=COURSE)
    server = routes.create_server(inline=True)
    state = ServerState(kit.workspace, DiagnosticMemo())
    state.caps = Capabilities.read(client_capabilities("visual-studio-code"))
    assert state.caps.lazy_completion_documentation
    one, two = kit.uri("01.md"), kit.uri("02.md")
    kit.workspace.open(one, LESSON_1, 1)
    server.state = state
    return server, _params(one, two, kit.uri("mfcourse.toml"))


def _answered(value: Any) -> bool:
    """Whether `value` is an answer with content (not None, not empty)."""
    if value is None:
        return False
    if isinstance(value, t.SemanticTokens):
        return bool(value.data)
    if isinstance(value, t.CompletionList):
        return bool(value.items)
    if isinstance(value, t.CompletionItem):
        return value.documentation is not None
    if isinstance(value, (list, dict, str)):
        return bool(value)
    return True


@pytest.mark.parametrize("route", READ_ROUTES, ids=lambda route: route.method)
def test_every_read_route_answers_without_the_disk(
    route: routes.Route, server_and_params: tuple[MflsServer, dict[str, Any]]
) -> None:
    server, params = server_and_params
    run = routes.bound(server, route)
    touched: list[str] = []
    with recorded_no_disk(touched):
        answer = run(params[route.method])
    assert touched == []
    assert _answered(answer), (route.method, answer)
