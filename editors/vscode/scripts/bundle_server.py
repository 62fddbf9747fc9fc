"""Lays the mfls server into the extension at package time: `server/` gets this checkout's
`mfls` package, the pure-Python wheels of its dependencies (chosen for Python 3.10, so
that the 3.10-only ones such as tomli come too and every later Python can run them),
`launch.py`, which the extension runs as `python -I -S server/launch.py serve`, and the
bytecode of all of it for the Python that packages it (`precompile`), with the methods attrs
writes for lsprotocol's classes compiled for it too (`attrs_code.py`).

Run from editors/vscode (npm run bundle-server); needs pip and the package index (or a
wheel cache) at package time, nothing at run time.
"""

from __future__ import annotations

import compileall
import py_compile
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

try:
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
except ModuleNotFoundError:  # pip always carries it
    from pip._vendor.packaging.requirements import Requirement
    from pip._vendor.packaging.utils import canonicalize_name

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

HERE = Path(__file__).resolve().parent
EXTENSION = HERE.parent
REPO = EXTENSION.parent.parent
TARGET = EXTENSION / "server"
OLDEST_PYTHON = "3.10"

LAUNCHER = '''"""Starts the mfls bundled beside this file, whatever else the interpreter holds."""

import os
import sys

if sys.version_info < (3, 10):
    sys.exit("mfls needs Python 3.10 or later, not " + sys.version.split()[0])
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import attrs_code  # noqa: E402

attrs_code.reuse()

from mfls.cli import entry  # noqa: E402

entry()
'''


def dependencies() -> list[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return list(project["dependencies"])


def install(requirements: list[str]) -> None:
    subprocess.run(
        [
            *(sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"),
            *("--target", str(TARGET), "--no-compile", "--only-binary=:all:", "--upgrade"),
            *("--python-version", OLDEST_PYTHON, "--implementation", "py", "--abi", "none"),
            *("--platform", "any", "--root-user-action", "ignore"),
            *requirements,
        ],
        check=True,
    )


def missing_for_oldest(requirements: list[str]) -> list[str]:
    """The requirements (of the project and of every bundled distribution) that hold on the
    oldest Python but are not bundled: pip evaluates markers for the Python it runs on."""
    environment = {"python_version": OLDEST_PYTHON, "python_full_version": OLDEST_PYTHON + ".0"}
    installed = {
        canonicalize_name(metadata.Distribution.at(info).metadata["Name"])
        for info in TARGET.glob("*.dist-info")
    }
    wanted = list(requirements)
    for info in TARGET.glob("*.dist-info"):
        wanted += metadata.Distribution.at(info).requires or []
    found = []
    for text in wanted:
        requirement = Requirement(text)
        if requirement.marker is not None and not requirement.marker.evaluate(
            {**environment, "extra": ""}
        ):
            continue
        if canonicalize_name(requirement.name) not in installed:
            found.append(f"{requirement.name}{requirement.specifier}")
    return sorted(set(found))


def precompile() -> None:
    """Byte-compiles the bundle for the Python packaging it: a first start on that version
    reads the bytecode instead of compiling some 160 modules (a second or more of the first
    problems' wait). The bytecode is never checked against its source (`UNCHECKED_HASH`):
    the bundle does not change once installed, and unpacking the package keeps no file
    times. Other versions compile their own on the first start, as before."""
    compiled = compileall.compile_dir(
        str(TARGET),
        quiet=1,
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )
    if not compiled:
        raise SystemExit("byte-compiling the bundled server failed")


def record_attrs_code() -> None:
    """The methods attrs writes for lsprotocol's classes, compiled now for the Python
    packaging, as its bytecode (`attrs_code.py`): a start on that version compiles none
    (about 80 ms of CPU, a fifth of the start). `-B`: the bytecode laid by `precompile`
    stays as it is."""
    subprocess.run(
        [sys.executable, "-I", "-B", str(TARGET / "attrs_code.py")], check=True, cwd=TARGET
    )


def main() -> int:
    if TARGET.exists():
        shutil.rmtree(TARGET)
    TARGET.mkdir()
    requirements = dependencies()
    install(requirements)
    for _ in range(5):
        missing = missing_for_oldest(requirements)
        if not missing:
            break
        install(missing)
    else:
        raise SystemExit(f"still missing for Python {OLDEST_PYTHON}: {missing}")
    shutil.copytree(
        REPO / "mfls",
        TARGET / "mfls",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.pyd", "_compiled.py"),
    )
    for junk in TARGET.glob("bin"):
        shutil.rmtree(junk)
    (TARGET / "launch.py").write_text(LAUNCHER, encoding="utf-8")
    shutil.copy2(HERE / "attrs_code.py", TARGET / "attrs_code.py")
    precompile()
    record_attrs_code()
    names = sorted(p.name for p in TARGET.iterdir() if not p.name.endswith(".dist-info"))
    print(f"bundled into {TARGET.relative_to(EXTENSION)}: {', '.join(names)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
