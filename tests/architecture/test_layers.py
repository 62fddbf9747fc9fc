"""The layer contracts of pyproject.toml hold, and they break when someone breaks a layer.

The contracts are import-linter's (`lint-imports` runs the same ones, as does pre-commit):
cli > lsp > exports > features > workspace > (disk | syntax) > text, nothing below lsp imports
lsprotocol or pygls, the command line reaches lsp only through cli/serve.py, features
import no disk gateway, and no two modules (or packages) of one package import each other.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from arch_kit import PACKAGE, contracts, copy_package, lint_imports

# The layers of the target layout, top to bottom, and the package's own modules: the two
# every package has, and which build runs (build.py; _compiled.py, which a compiled build
# writes and build.py reads).
LAYERS = ("cli", "lsp", "exports", "features", "workspace", "disk", "syntax", "text")
PACKAGE_FILES = ("__init__", "__main__", "build", "_compiled")
PROTOCOL = ("mfls.lsp", "lsprotocol", "pygls")


@pytest.mark.parametrize("contract_id", [c["id"] for c in contracts()])
def test_contract_is_kept(contract_id: str) -> None:
    result = lint_imports(PACKAGE.parent, contract_id)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_top_level_module_is_a_layer() -> None:
    """A module beside the layers would be outside every contract."""
    children = {p.stem for p in PACKAGE.glob("*.py")}
    children |= {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    beside = children - set(PACKAGE_FILES) - set(LAYERS)
    missing = set(LAYERS) - children
    assert (sorted(beside), sorted(missing)) == ([], [])
    (layers,) = [c["layers"] for c in contracts() if c["type"] == "layers"]
    declared = [name.strip() for layer in layers for name in layer.split("|")]
    assert sorted(declared) == sorted(LAYERS)


def _module_level_imports(tree: ast.Module) -> list[tuple[int, str]]:
    """Imports that run when the module is imported (not those inside a function)."""
    found: list[tuple[int, str]] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            if isinstance(child, ast.Import):
                found += [(child.lineno, alias.name) for alias in child.names]
            elif isinstance(child, ast.ImportFrom) and child.module and not child.level:
                found += [(child.lineno, f"{child.module}.{alias.name}") for alias in child.names]
            pending.append(child)
    return found


def test_the_command_line_imports_the_server_only_when_it_serves() -> None:
    """`mfls check` and `mfls scan` never load pygls: cli/serve.py imports lsp lazily."""
    cli = PACKAGE / "cli"
    files = sorted(cli.rglob("*.py")) if cli.is_dir() else [PACKAGE / "cli.py"]
    eager = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: import {name}"
        for path in files
        for line, name in _module_level_imports(ast.parse(path.read_text(encoding="utf-8")))
        if any(name == top or name.startswith(top + ".") for top in PROTOCOL)
    ]
    assert eager == [], "\n".join(eager)


def _plant(root: Path, module: str, source: str) -> None:
    path = root.joinpath(*module.split(".")).with_suffix(".py")
    path.write_text(source, encoding="utf-8")


@pytest.mark.parametrize(
    ("importer", "imported", "contract_id"),
    [
        # An upward import: the scanner reaching for the front end.
        ("mfls.syntax._planted", "mfls.lsp", "layers"),
        # Two of the lowest modules knowing each other.
        ("mfls.syntax._planted", "mfls.disk", "layers"),
        ("mfls.text._planted", "mfls.syntax", "layers"),
        # A protocol type below the front end.
        ("mfls.workspace._planted", "lsprotocol", "protocol-only-in-lsp"),
        # A handler reaching past its snapshot and files, or its state and plumbing.
        ("mfls.lsp.handlers.navigation", "mfls.lsp.server", "handlers-get-a-snapshot"),
        ("mfls.lsp.handlers.editing", "mfls.disk", "handlers-get-a-snapshot"),
        ("mfls.lsp.handlers.lifecycle", "mfls.lsp.server", "handlers-get-a-snapshot"),
        ("mfls.lsp.handlers.documents", "mfls.disk", "handlers-get-a-snapshot"),
        # A READ or DISK handler reaching the mutable state.
        ("mfls.lsp.handlers.assistance", "mfls.lsp.state", "read-handlers-see-no-state"),
        ("mfls.lsp.handlers.editing", "mfls.lsp.plumbing", "read-handlers-see-no-state"),
        # The snapshot reaching the mutable state, through a module it imports.
        ("mfls.lsp.documents", "mfls.lsp.state", "snapshot-imports-nothing-mutable"),
        ("mfls.lsp.diagnostic_memo", "mfls.disk", "snapshot-does-no-io"),
    ],
)
def test_a_planted_import_breaks_the_contract(
    tmp_path: Path, importer: str, imported: str, contract_id: str
) -> None:
    root = copy_package(tmp_path)
    _plant(root, importer, f"import {imported}\n")
    result = lint_imports(root, contract_id)
    assert result.returncode != 0
    assert f"{importer} -> {imported}" in result.stdout, result.stdout + result.stderr


def test_a_planted_cycle_breaks_the_contract(tmp_path: Path) -> None:
    root = copy_package(tmp_path)
    _plant(root, "mfls.features._planted_a", "from mfls.features import _planted_b\n")
    _plant(root, "mfls.features._planted_b", "from mfls.features import _planted_a\n")
    result = lint_imports(root, "acyclic")
    assert result.returncode != 0
    assert "No cycles are allowed in mfls.features." in result.stdout, result.stdout
    assert "._planted_" in result.stdout, result.stdout
