"""AI-Shifu lesson structure over the wire: document symbols list the prompt blocks,
folding ranges cover them, semantic tokens mark fixed output (one real server)."""

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

LESSON = (
    "# Welcome\n"  # 0
    "\n"
    "?[{{ goal }} Learn | Teach]\n"  # 2
    "---\n"  # 3
    "!===\n"  # 4
    "Hello {{ goal }}!\n"  # 5
    "!===\n"  # 6
    "---\n"  # 7
    "## Prompt\n"  # 8
    "\n"
    "Talk about {{ goal }}.\n"  # 10
)


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("shifu")
    write_files(root, {"mfcourse.toml": 'host = "ai-shifu"\n', "01.md": LESSON})
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
            workspace_folders=[t.WorkspaceFolder(uri=uri_of(course), name="shifu")],
        )
    )
    assert result.capabilities.folding_range_provider
    await wait_until(
        lambda: any(
            isinstance(v, t.WorkDoneProgressEnd)
            for reports in lsp_client.progress_reports.values()
            for v in reports
        )
    )
    lsp_client.text_document_did_open(
        t.DidOpenTextDocumentParams(
            text_document=t.TextDocumentItem(
                uri=uri_of(course / "01.md"), language_id="markdown", version=1, text=LESSON
            )
        )
    )
    yield
    await lsp_client.shutdown_session()


async def test_symbols_folding_and_tokens_show_the_blocks(
    client: LanguageClient, course: Path
) -> None:
    document = t.TextDocumentIdentifier(uri=uri_of(course / "01.md"))

    symbols = await client.text_document_document_symbol_async(
        t.DocumentSymbolParams(text_document=document)
    )
    assert symbols is not None
    assert all(isinstance(s, t.DocumentSymbol) for s in symbols)
    blocks = [s for s in symbols if isinstance(s, t.DocumentSymbol)]
    assert [s.name for s in blocks] == ["Block 1", "Block 2 (fixed output)", "Block 3"]
    assert {s.kind for s in blocks} == {t.SymbolKind.Module}
    assert [c.name for c in blocks[0].children or []] == ["Welcome"]
    assert (blocks[1].range.start.line, blocks[1].range.end.line) == (4, 6)

    folds = await client.text_document_folding_range_async(
        t.FoldingRangeParams(text_document=document)
    )
    assert folds is not None
    lines = {(f.start_line, f.end_line) for f in folds}
    assert {(0, 2), (4, 6), (8, 10)} <= lines

    tokens = await client.text_document_semantic_tokens_full_async(
        t.SemanticTokensParams(text_document=document)
    )
    assert tokens is not None
    line = char = 0
    decoded = []
    for i in range(0, len(tokens.data), 5):
        delta_line, delta_char, length, kind, modifiers = tokens.data[i : i + 5]
        line += delta_line
        char = char + delta_char if delta_line == 0 else delta_char
        decoded.append((line, char, length, kind, modifiers))
    string, fixed = 2, 1 << 5  # TOKEN_TYPES "string", TOKEN_MODIFIERS "fixed" (appended)
    assert (4, 0, 4, string, 0) in decoded  # the opening !===
    assert (5, 0, 6, string, 0) in decoded  # "Hello "
    marker = next(d for d in decoded if d[0] == 5 and d[1] == 6)
    assert marker[3] == 0 and marker[4] & fixed
    assert not any(d[4] & fixed for d in decoded if d[0] in (2, 10))
