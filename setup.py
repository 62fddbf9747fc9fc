"""The build of mfls: the scanner compiled with mypyc where a C compiler works, else pure.

`MFLS_BUILD` chooses: `auto` (the default) compiles when mypyc is importable and a
probe C extension compiles and links, and otherwise builds pure Python with a note on
stderr; `compiled` compiles or fails; `pure` never compiles. The Python sources are
installed either way: they are the fallback and the reference. A compiled build also
writes `mfls/_compiled.py`, the length and CRC-32 of the sources it compiled against, which
`mfls/build.py` checks at start-up: compiled modules run only while their sources are
unchanged (see README "Builds").
"""

from __future__ import annotations

import os
import sys
import sysconfig
import tempfile
import zlib
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
MANIFEST = Path("mfls", "_compiled.py")
GROUP = "mfls._native"
"""The shared library mypyc puts every compiled module in (`mfls/_native__mypyc.*`)."""


def compiled_sources() -> list[str]:
    """The modules mypyc compiles: the scanner, the line index every position uses and
    the placing of a check's findings."""
    syntax = sorted(p for p in Path("mfls", "syntax").glob("*.py") if p.name != "__init__.py")
    text = [Path("mfls", "text", "line_index.py"), Path("mfls", "text", "places.py")]
    return [p.as_posix() for p in [*syntax, *text]]


def checked_sources(compiled: list[str]) -> list[str]:
    """The compiled modules and every mfls module they import, transitively: mypyc
    compiled them against the types those modules had."""
    import ast

    seen: set[str] = set()
    todo = list(compiled)
    while todo:
        source = todo.pop()
        if source in seen:
            continue
        seen.add(source)
        for node in ast.walk(ast.parse((ROOT / source).read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            for name in names:
                if name.split(".")[0] != "mfls":
                    continue
                path = Path(*name.split("."))
                for candidate in (path.with_suffix(".py"), path / "__init__.py"):
                    if (ROOT / candidate).is_file():
                        todo.append(candidate.as_posix())
    return sorted(seen)


def compiler_problem() -> str | None:
    """Why no C extension can be built here (None when a probe compiles and links)."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    compiler = new_compiler()
    customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp, "probe.c")
        probe.write_text("#include <Python.h>\nint mfls_probe(void) { return 0; }\n")
        try:
            objects = compiler.compile(
                [str(probe)], output_dir=tmp, include_dirs=[sysconfig.get_paths()["include"]]
            )
            compiler.link_shared_object(objects, str(Path(tmp, "probe.so")))
        except Exception as problem:  # any failure of the toolchain means: build pure
            return f"{type(problem).__name__}: {problem}"
    return None


def compiling() -> bool:
    """Whether this build compiles (MFLS_BUILD, mypyc and a working C compiler)."""
    mode = os.environ.get("MFLS_BUILD", "auto")
    if mode not in {"auto", "compiled", "pure"}:
        sys.exit(f"MFLS_BUILD={mode!r}: use auto, compiled or pure")
    if mode == "pure":
        return False
    try:
        import mypyc.build  # noqa: F401 (only whether it imports)
    except ImportError as missing:
        problem: str | None = f"mypyc is not installed ({missing})"
    else:
        problem = compiler_problem()
    if problem is not None:
        if mode == "compiled":
            sys.exit(f"MFLS_BUILD=compiled, but {problem}")
        print(f"mfls: building pure Python: {problem}", file=sys.stderr)
        return False
    return True


def manifest_text(sources: list[str]) -> str:
    lines = [
        '"""Written by setup.py for a compiled build: the length and CRC-32 of the source of',
        "each compiled module and each mfls module they import, when they were compiled",
        '(mfls/build.py runs the compiled modules only while these sources match)."""',
        "",
        "SOURCES = {",
    ]
    for source in sources:
        data = (ROOT / source).read_bytes()
        relative = Path(source).relative_to("mfls").as_posix()
        lines.append(f'    "{relative}": ({len(data)}, {zlib.crc32(data)}),')
    return "\n".join([*lines, "}", ""])


def in_place_artifacts() -> list[Path]:
    """What a compiled editable build leaves in the source tree."""
    package = ROOT / "mfls"
    suffixes = {".so", ".pyd"}
    built = [p for p in package.rglob("*") if p.suffix in suffixes]
    return [*built, ROOT / MANIFEST]


class BuildPy(build_py):
    """An editable pure build first removes the compiled modules of an earlier one, and no
    build copies a manifest from the tree: an earlier compiled build's would describe
    modules a pure wheel lacks (a compiled build writes its own, BuildExt)."""

    def find_package_modules(self, package: str, package_dir: str) -> list[tuple[str, str, str]]:
        modules = super().find_package_modules(package, package_dir)
        manifest = (".".join(MANIFEST.parent.parts), MANIFEST.stem)
        return [module for module in modules if module[:2] != manifest]

    def run(self) -> None:
        if getattr(self, "editable_mode", False) and not self.distribution.ext_modules:
            for stale in in_place_artifacts():
                stale.unlink(missing_ok=True)
        super().run()


class BuildExt(build_ext):
    """mypyc's extensions, made only when building (pip also runs setup.py for metadata),
    then the manifest of what was compiled, beside the compiled modules."""

    def finalize_options(self) -> None:
        modules = self.distribution.ext_modules
        if modules and modules[0] is NATIVE[0]:
            from mypyc.build import mypycify

            modules[:] = mypycify(compiled_sources(), opt_level="3", group_name=GROUP)
        super().finalize_options()

    def run(self) -> None:
        super().run()
        if not self.extensions:
            return
        text = manifest_text(checked_sources(compiled_sources()))
        targets = {Path(self.build_lib) / MANIFEST}
        if self.inplace or getattr(self, "editable_mode", False):
            targets.add(ROOT / MANIFEST)
        for target in targets:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)


# A stand-in until BuildExt.finalize_options; it makes build_ext run and the wheel
# platform-specific.
NATIVE = [Extension(f"{GROUP}__mypyc", sources=[])] if compiling() else []
setup(ext_modules=NATIVE, cmdclass={"build_ext": BuildExt, "build_py": BuildPy})
