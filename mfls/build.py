"""Which build runs: the mypyc-compiled modules, or the pure-Python ones beside them.

A compiled build (setup.py) leaves each compiled module's source in place and writes
`mfls/_compiled.py`, the length and CRC-32 of every source it compiled against (the
compiled modules and the mfls modules they import). `choose()` runs before any
other module of mfls is imported: unless that manifest exists and every source still
has them, and `MFLS_PURE` is unset, it puts a finder first on `sys.meta_path` that
imports every `mfls.*` module from its `.py` file, so a compiled module is never run
against a source it was not built from, and never mixed with pure modules of its group.
"""

from __future__ import annotations

import os
import sys
import zlib
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import (
    SOURCE_SUFFIXES,
    ExtensionFileLoader,
    FileFinder,
    ModuleSpec,
    SourceFileLoader,
)
from importlib.util import module_from_spec
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
COMPILED = "compiled (mypyc)"
PURE = "pure Python"

reason = ""
"""Why the pure modules run although a compiled build is installed ("" otherwise)."""


class SourceOnly(MetaPathFinder):
    """Finds `mfls.*` modules as the path finder does, but only their `.py` files."""

    def __init__(self) -> None:
        self._finders: dict[str, FileFinder] = {}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not fullname.startswith("mfls.") or path is None:
            return None
        for entry in path:
            finder = self._finders.get(entry)
            if finder is None:
                finder = FileFinder(entry, (SourceFileLoader, SOURCE_SUFFIXES))
                self._finders[entry] = finder
            spec = finder.find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


def _stale(sources: dict[str, tuple[int, int]]) -> str | None:
    """The first compiled module whose source changed since it was compiled."""
    for relative, (length, crc) in sorted(sources.items()):
        source = str(PACKAGE / relative)
        try:
            # The import system's own reader of module sources.
            data = SourceFileLoader("mfls", source).get_data(source)
        except OSError:
            return relative
        if len(data) != length or zlib.crc32(data) != crc:
            return relative
    return None


def _manifest() -> ModuleType | None:
    """This package's own `_compiled` module: looked up in this directory only, since a
    finder later on `sys.meta_path` (an editable install's) could find another tree's."""
    spec = FileFinder(str(PACKAGE), (SourceFileLoader, SOURCE_SUFFIXES)).find_spec("mfls._compiled")
    if spec is None or spec.loader is None:
        return None
    manifest = module_from_spec(spec)
    spec.loader.exec_module(manifest)
    return manifest


def choose() -> None:
    """Run the compiled modules only when they are fresh and wanted (see the module)."""
    global reason
    manifest = _manifest()
    if os.environ.get("MFLS_PURE"):
        reason = "MFLS_PURE is set" if manifest is not None else ""
    elif manifest is not None:
        stale = _stale(manifest.SOURCES)
        if stale is None:
            return
        reason = f"the compiled modules are older than their sources: {stale} changed"
    sys.meta_path.insert(0, SourceOnly())


def running() -> str:
    """COMPILED or PURE: how the scanner that runs was loaded."""
    from mfls.syntax import scanner

    loader = getattr(scanner, "__loader__", None)
    return COMPILED if isinstance(loader, ExtensionFileLoader) else PURE


def describe() -> str:
    """The `mfls --version` line: version, build, Python."""
    from mfls import __version__

    build = running()
    if build == PURE and reason:
        build = f"{PURE} ({reason})"
    python = ".".join(str(part) for part in sys.version_info[:3])
    return f"mfls {__version__}, {build}, Python {python}"
