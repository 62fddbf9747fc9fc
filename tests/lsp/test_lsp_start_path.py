"""The server's start path (`mfls serve` importing its front end) loads no feature that only
a request needs: an editor's first problem waits for that start, and hover, completion,
navigation, lenses, hints, links, the course map and the course figures are imported at
their first request (issue 32). The diagnostics' own features are on the path; so are the
code actions (their kinds are the server's capabilities) and the rename records the
indexing reads."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import mfls.lsp.handlers

# Imported by a request's handler when it first runs, never at the start.
AT_FIRST_USE = (
    "mfls.features.code_lens",
    "mfls.features.completion",
    "mfls.features.course_info",
    "mfls.features.course_map",
    "mfls.features.course_map_html",
    "mfls.features.document_links",
    "mfls.features.folding",
    "mfls.features.hover",
    "mfls.features.inlay_hints",
    "mfls.features.navigation",
    "mfls.features.snippets",
    "mfls.features.symbols",
    "mfls.features.sync_status",
)

IMPORT_THE_FRONT_END = """
import json, sys
from mfls.cli import serve
serve._import_front_end()
print(json.dumps(sorted(sys.modules)))
"""


def modules_after(code: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    return set(json.loads(done.stdout))


def test_the_start_path_imports_no_feature_only_a_request_needs() -> None:
    loaded = modules_after(IMPORT_THE_FRONT_END)
    assert "mfls.lsp.routes" in loaded
    assert "mfls.features.diagnostics" in loaded
    assert sorted(loaded.intersection(AT_FIRST_USE)) == []


def _imported_in_functions(source: str) -> set[str]:
    """The modules a module's functions import (`from a.b import c`: a.b and a.b.c)."""
    found: set[str] = set()
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.ImportFrom) and node.module:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_handlers_import_those_features_when_they_run() -> None:
    """The list above is what the handlers import in their functions (not a stale list
    that would pass whatever the start path loads)."""
    handlers = Path(mfls.lsp.handlers.__file__).parent
    imported = set().union(
        *(
            _imported_in_functions(path.read_text(encoding="utf-8"))
            for path in handlers.glob("*.py")
        )
    )
    assert sorted(set(AT_FIRST_USE) - imported) == []
