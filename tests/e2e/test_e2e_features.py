"""Each capability once, against one server shared by the module (VS Code's capabilities)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from e2e_session import capabilities, uri_of, wait_until, write_files
from lsprotocol import types as t
from pytest_lsp import ClientServerConfig, LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

LESSON_1 = (
    "# Welcome\n"
    "\n"
    "?[{{ What would you like to learn? }} Python | JavaScript]\n"
    "\n"
    "## Practice\n"
    "\n"
    "Use {{ What would you like to learn? }} in an example.\n"
    "Ask again: {{\n"
)
LESSON_2 = (
    "# Next\n\nMore about {{ What would you like to learn? }}.\n\n?[{{ level }} Easy | Hard]\n"
)
KEY = "What would you like to learn?"
INITIALIZED: dict[str, t.InitializeResult] = {}


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
            "01.md": LESSON_1,
            "02.md": LESSON_2,
        },
    )
    return root


@pytest_lsp.fixture(
    scope="module", config=ClientServerConfig(server_command=[sys.executable, "-m", "mfls"])
)
async def client(lsp_client: LanguageClient, course: Path) -> AsyncIterator[None]:
    @lsp_client.feature(t.CLIENT_REGISTER_CAPABILITY)
    def register(params: t.RegistrationParams) -> None:
        return None

    # The server re-registers its file watchers once it knows the courses' globs.
    @lsp_client.feature(t.CLIENT_UNREGISTER_CAPABILITY)
    def unregister(params: t.UnregistrationParams) -> None:
        return None

    @lsp_client.feature(t.WORKSPACE_CODE_LENS_REFRESH)
    def refresh_lenses(params: None) -> None:
        return None

    result = await lsp_client.initialize_session(
        t.InitializeParams(
            capabilities=capabilities("visual-studio-code"),
            workspace_folders=[t.WorkspaceFolder(uri=uri_of(course), name="course")],
        )
    )
    INITIALIZED["result"] = result
    await wait_until(
        lambda: any(
            isinstance(v, t.WorkDoneProgressEnd)
            for reports in lsp_client.progress_reports.values()
            for v in reports
        )
    )
    for name, text in (("01.md", LESSON_1), ("02.md", LESSON_2)):
        lsp_client.text_document_did_open(
            t.DidOpenTextDocumentParams(
                text_document=t.TextDocumentItem(
                    uri=uri_of(course / name), language_id="markdown", version=1, text=text
                )
            )
        )
    yield
    await lsp_client.shutdown_session()


def doc(course: Path, name: str) -> t.TextDocumentIdentifier:
    return t.TextDocumentIdentifier(uri=uri_of(course / name))


async def test_server_capabilities(client: LanguageClient) -> None:
    caps = INITIALIZED["result"].capabilities
    assert caps.position_encoding == t.PositionEncodingKind.Utf16
    sync = caps.text_document_sync
    assert isinstance(sync, t.TextDocumentSyncOptions)
    assert sync.change == t.TextDocumentSyncKind.Incremental
    assert caps.completion_provider is not None
    assert list(caps.completion_provider.trigger_characters or []) == ["{", "[", " "]
    assert caps.hover_provider and caps.definition_provider and caps.declaration_provider
    assert caps.references_provider and caps.document_highlight_provider
    assert caps.document_symbol_provider and caps.workspace_symbol_provider
    tokens = caps.semantic_tokens_provider
    assert tokens is not None and tokens.full and tokens.range
    assert "variable" in tokens.legend.token_types
    assert caps.diagnostic_provider is None, "VS Code 1.65 cannot pull: diagnostics are pushed"
    assert caps.workspace is not None and caps.workspace.workspace_folders is not None
    assert INITIALIZED["result"].server_info is not None
    assert INITIALIZED["result"].server_info.name == "mfls"


async def test_completion_replaces_what_was_typed(client: LanguageClient, course: Path) -> None:
    # Line 7 is "Ask again: {{" with the cursor after the braces.
    result = await client.text_document_completion_async(
        t.CompletionParams(
            text_document=doc(course, "01.md"),
            position=t.Position(line=7, character=13),
            context=t.CompletionContext(
                trigger_kind=t.CompletionTriggerKind.TriggerCharacter, trigger_character="{"
            ),
        )
    )
    assert result is not None
    items = {item.label: item for item in result.items}
    assert {KEY, "level", "sys_user_nickname"} <= set(items)
    item = items[KEY]
    assert isinstance(item.text_edit, t.TextEdit)
    # Only what is missing after the typed `{{` is written: no client doubles the braces.
    # VS Code takes snippets: the text is one, escaped, without tab stops.
    assert item.insert_text_format == t.InsertTextFormat.Snippet
    assert item.text_edit.new_text == " What would you like to learn? \\}\\}"
    assert item.text_edit.range == t.Range(
        start=t.Position(line=7, character=13), end=t.Position(line=7, character=13)
    )
    assert item.filter_text is None
    # Bound earlier in the course sorts before a host key.
    assert (item.sort_text or "") < (items["sys_user_nickname"].sort_text or "")
    # VS Code resolves documentation lazily: it comes with completionItem/resolve.
    assert item.documentation is None
    resolved = await client.completion_item_resolve_async(item)
    assert isinstance(resolved.documentation, t.MarkupContent)
    assert KEY in resolved.documentation.value


async def test_completion_over_an_auto_closed_marker(client: LanguageClient, course: Path) -> None:
    uri = uri_of(course / "02.md")
    client.text_document_did_change(
        t.DidChangeTextDocumentParams(
            text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                t.TextDocumentContentChangePartial(
                    range=t.Range(
                        start=t.Position(line=5, character=0), end=t.Position(line=5, character=0)
                    ),
                    text="\nAnd {{ le}}",
                )
            ],
        )
    )
    result = await client.text_document_completion_async(
        t.CompletionParams(
            text_document=doc(course, "02.md"), position=t.Position(line=6, character=9)
        )
    )
    assert result is not None
    (item,) = [i for i in result.items if i.label == "level"]
    assert isinstance(item.text_edit, t.TextEdit)
    # The typed key is replaced; the closing braces already there stay.
    assert item.text_edit.range == t.Range(
        start=t.Position(line=6, character=7), end=t.Position(line=6, character=9)
    )
    assert item.text_edit.new_text == "level "
    # Typed `le`: only the keys holding it are offered, and the list is asked again.
    assert all("l" in i.label.casefold() and "e" in i.label.casefold() for i in result.items)
    assert result.is_incomplete


async def test_hover_shows_the_exact_key(client: LanguageClient, course: Path) -> None:
    hover = await client.text_document_hover_async(
        t.HoverParams(text_document=doc(course, "01.md"), position=t.Position(line=6, character=8))
    )
    assert hover is not None
    assert isinstance(hover.contents, t.MarkupContent)
    assert hover.contents.kind == t.MarkupKind.Markdown
    assert KEY in hover.contents.value
    assert "```" in hover.contents.value
    assert hover.range == t.Range(
        start=t.Position(line=6, character=4), end=t.Position(line=6, character=39)
    )


async def test_definition_and_declaration_are_location_links(
    client: LanguageClient, course: Path
) -> None:
    params = {"text_document": doc(course, "02.md"), "position": t.Position(line=2, character=15)}
    for answer in (
        await client.text_document_definition_async(t.DefinitionParams(**params)),
        await client.text_document_declaration_async(t.DeclarationParams(**params)),
    ):
        assert isinstance(answer, list) and len(answer) == 1
        (link,) = answer
        assert isinstance(link, t.LocationLink)
        assert link.target_uri == uri_of(course / "01.md")
        assert link.target_range == t.Range(
            start=t.Position(line=2, character=0), end=t.Position(line=2, character=58)
        )
        assert link.target_selection_range == t.Range(
            start=t.Position(line=2, character=5), end=t.Position(line=2, character=34)
        )
        assert link.origin_selection_range == t.Range(
            start=t.Position(line=2, character=11), end=t.Position(line=2, character=46)
        )


async def test_references_with_and_without_the_declaration(
    client: LanguageClient, course: Path
) -> None:
    def params(include: bool) -> t.ReferenceParams:
        return t.ReferenceParams(
            text_document=doc(course, "01.md"),
            position=t.Position(line=2, character=10),
            context=t.ReferenceContext(include_declaration=include),
        )

    every = await client.text_document_references_async(params(True))
    uses = await client.text_document_references_async(params(False))
    assert every is not None and uses is not None
    assert [(r.uri.rsplit("/", 1)[-1], r.range.start.line) for r in every] == [
        ("01.md", 2),
        ("01.md", 6),
        ("02.md", 2),
    ]
    assert len(uses) == 2


async def test_document_highlights_mark_the_binding_as_a_write(
    client: LanguageClient, course: Path
) -> None:
    found = await client.text_document_document_highlight_async(
        t.DocumentHighlightParams(
            text_document=doc(course, "01.md"), position=t.Position(line=6, character=10)
        )
    )
    assert found is not None
    assert [(h.range.start.line, h.kind) for h in found] == [
        (2, t.DocumentHighlightKind.Write),
        (6, t.DocumentHighlightKind.Read),
    ]


async def test_document_symbols_nest_interactions_under_headings(
    client: LanguageClient, course: Path
) -> None:
    found = await client.text_document_document_symbol_async(
        t.DocumentSymbolParams(text_document=doc(course, "01.md"))
    )
    assert found is not None
    (welcome,) = found
    assert isinstance(welcome, t.DocumentSymbol)
    assert welcome.name == "Welcome"
    names = [child.name for child in welcome.children or []]
    assert names == [KEY, "Practice"]


async def test_workspace_symbols_name_the_course(client: LanguageClient, course: Path) -> None:
    found = await client.workspace_symbol_async(t.WorkspaceSymbolParams(query="level"))
    assert found is not None
    matches = [s for s in found if s.name == "level"]
    assert len(matches) == 1
    assert matches[0].container_name == "Demo"


async def test_semantic_tokens_full_and_range(client: LanguageClient, course: Path) -> None:
    full = await client.text_document_semantic_tokens_full_async(
        t.SemanticTokensParams(text_document=doc(course, "01.md"))
    )
    assert full is not None and full.data and len(full.data) % 5 == 0
    # Decode: the first token is the `?[` operator on line 2, then the binding marker.
    line = char = 0
    decoded = []
    for i in range(0, len(full.data), 5):
        delta_line, delta_char, length, kind, modifiers = full.data[i : i + 5]
        line += delta_line
        char = char + delta_char if delta_line == 0 else delta_char
        decoded.append((line, char, length, kind, modifiers))
    assert decoded[0][:3] == (2, 0, 2)
    assert decoded[1][:3] == (2, 2, 35)
    assert decoded[1][4] & 1, "the binding carries the declaration modifier"

    ranged = await client.text_document_semantic_tokens_range_async(
        t.SemanticTokensRangeParams(
            text_document=doc(course, "01.md"),
            range=t.Range(
                start=t.Position(line=6, character=0), end=t.Position(line=7, character=0)
            ),
        )
    )
    assert ranged is not None
    assert list(ranged.data[:3]) == [6, 4, 35]
    assert len(ranged.data) == 5


async def test_requests_on_unknown_documents_answer_empty(client: LanguageClient) -> None:
    nowhere = t.TextDocumentIdentifier(uri="file:///no/such/doc.md")
    at = t.Position(line=0, character=0)
    assert (
        await client.text_document_hover_async(t.HoverParams(text_document=nowhere, position=at))
        is None
    )
    assert (
        await client.text_document_completion_async(
            t.CompletionParams(text_document=nowhere, position=at)
        )
        is None
    )
    assert (
        await client.text_document_definition_async(
            t.DefinitionParams(text_document=nowhere, position=at)
        )
        is None
    )
