"""The disk gateway is the only module that touches the file system: no other module of
`mfls` opens, lists, stats or replaces files itself."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "mfls"

FILE_SYSTEM_CALLS = frozenset(
    {
        "open",
        "io.open",
        "os.open",
        "os.fdopen",
        "os.scandir",
        "os.listdir",
        "os.walk",
        "os.stat",
        "os.lstat",
        "os.access",
        "os.replace",
        "os.rename",
        "os.remove",
        "os.unlink",
        "os.mkdir",
        "os.makedirs",
        "os.chmod",
        "os.path.exists",
        "os.path.lexists",
        "os.path.isfile",
        "os.path.isdir",
        "os.path.islink",
        "os.path.realpath",
        "os.path.getsize",
        "tempfile.mkstemp",
        "tempfile.mkdtemp",
        "shutil.copy",
        "shutil.move",
    }
)
PATH_METHODS = frozenset(
    {"read_text", "read_bytes", "write_text", "write_bytes", "iterdir", "glob", "rglob"}
)

GATEWAY_NAMES = frozenset({"disk", "mfls.disk", "self._disk", "self.disk"})
"""The gateway module, and a `Disk` object held by the reader."""


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def file_system_calls(source: str) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func)
        if name in FILE_SYSTEM_CALLS or (name or "").startswith("tempfile."):  # every tempfile.*
            found.append((node.lineno, name))
        elif (
            isinstance(node.func, ast.Attribute)
            and node.func.attr in PATH_METHODS
            and _dotted(node.func.value) not in GATEWAY_NAMES
        ):
            found.append((node.lineno, f"….{node.func.attr}"))
    return sorted(found)


def test_no_module_outside_the_gateway_touches_the_file_system() -> None:
    offenders = []
    for module in sorted(PACKAGE.rglob("*.py")):
        if module.is_relative_to(PACKAGE / "disk"):
            continue
        for line, name in file_system_calls(module.read_text(encoding="utf-8")):
            offenders.append(f"{module.relative_to(PACKAGE.parent)}:{line}: {name}()")
    assert offenders == [], "file system access outside mfls/disk:\n" + "\n".join(offenders)


def test_the_check_sees_a_planted_read() -> None:
    planted = (
        "import os\nwith open(p, 'rb') as f:\n    pass\nos.path.isfile(p)\nq.read_text()\n"
        "disk.read_text(p)\ntempfile.mkdtemp(prefix='x')\ntempfile.gettempdir()\n"
    )
    assert file_system_calls(planted) == [
        (2, "open"),
        (4, "os.path.isfile"),
        (5, "….read_text"),
        (7, "tempfile.mkdtemp"),
        (8, "tempfile.gettempdir"),
    ]
