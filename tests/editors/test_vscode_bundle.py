"""The server the VS Code extension carries (`server/` in mfls.vsix): it runs on the
oldest and the newest Python from 3.10 on that this machine has, taking every dependency
from the bundle, and a Python that is too old says so."""

from __future__ import annotations

import os
import re
import subprocess
import zipfile
from pathlib import Path

import pytest
from editor_harness import EDITORS, EXAMPLE_COURSE, require_path


def _pythons() -> dict[tuple[int, int], str]:
    """One interpreter per Python version found on PATH or under pyenv's versions."""
    found: dict[tuple[int, int], str] = {}
    names = [f"python3.{minor}" for minor in range(8, 15)] + ["python3"]
    folders = os.environ.get("PATH", "").split(os.pathsep)
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    folders += [str(p / "bin") for p in sorted(pyenv.glob("3.*"))]
    for folder in folders:
        for name in names:
            candidate = Path(folder) / name
            if not candidate.is_file() or not os.access(candidate, os.X_OK):
                continue
            probe = subprocess.run(
                [str(candidate), "-c", "import sys; print('%d %d' % sys.version_info[:2])"],
                capture_output=True,
                text=True,
                check=False,
                timeout=30,
            )
            if probe.returncode == 0:
                major, minor = (int(part) for part in probe.stdout.split())
                found.setdefault((major, minor), str(candidate))
    return found


@pytest.fixture(scope="module")
def launcher(tmp_path_factory: pytest.TempPathFactory) -> Path:
    vsix = require_path(EDITORS / "vscode" / "mfls.vsix", "the extension package (npm run package)")
    unpacked = tmp_path_factory.mktemp("vsix")
    with zipfile.ZipFile(vsix) as archive:
        archive.extractall(unpacked)
    return require_path(
        unpacked / "extension" / "server" / "launch.py", "server/launch.py in mfls.vsix"
    )


def _in_bundle(
    python: str, server: Path, statements: str, timeout: float
) -> subprocess.CompletedProcess[str]:
    """`statements` run by `python -I` with the bundle's server folder first on its path,
    as launch.py puts it."""
    code = f"import sys; sys.path.insert(0, {str(server)!r}); {statements}"
    return subprocess.run(
        [python, "-I", "-c", code],
        capture_output=True,
        text=True,
        env=_clean_env(),
        check=False,
        timeout=timeout,
    )


def _clean_env() -> dict[str, str]:
    return {key: value for key, value in os.environ.items() if not key.startswith("PYTHON")}


def test_the_bundled_server_checks_a_course_on_every_python_from_3_10(launcher: Path) -> None:
    pythons = {version: path for version, path in _pythons().items() if version >= (3, 10)}
    assert pythons, "no Python 3.10 or later found"
    # The oldest and the newest: the wheels are chosen for the oldest, and must suit all.
    for version in sorted({min(pythons), max(pythons)}):
        python = pythons[version]
        # As the extension runs it: -S, no site-packages, only the bundle and the stdlib.
        ran = subprocess.run(
            [python, "-I", "-S", str(launcher), "check", str(EXAMPLE_COURSE)],
            capture_output=True,
            text=True,
            env=_clean_env(),
            check=False,
            timeout=120,
        )
        where = f"Python {version[0]}.{version[1]} ({python})"
        assert "Traceback" not in ran.stderr, f"{where}:\n{ran.stderr}"
        assert "marker-unclosed" in ran.stdout, f"{where}:\n{ran.stdout}\n{ran.stderr}"
        # launch.py puts the bundle first on sys.path: every dependency comes from it.
        server = launcher.parent
        located = _in_bundle(
            python,
            server,
            "import mfls, pygls, lsprotocol, cattrs, attrs; "
            "print('\\n'.join(m.__file__ for m in (mfls, pygls, lsprotocol, cattrs, attrs)))",
            60,
        )
        assert located.returncode == 0, f"{where}: {located.stderr}"
        for module in located.stdout.split():
            assert Path(module).is_relative_to(server), f"{where}: {module}"


def test_a_python_older_than_3_10_is_told_so(launcher: Path) -> None:
    old = {version: path for version, path in _pythons().items() if version < (3, 10)}
    if not old:
        pytest.skip("no Python older than 3.10 on this machine")
    python = old[max(old)]
    ran = subprocess.run(
        [python, "-I", "-S", str(launcher), "serve"],
        capture_output=True,
        text=True,
        env=_clean_env(),
        check=False,
        timeout=60,
    )
    assert ran.returncode != 0
    assert "mfls needs Python 3.10 or later" in ran.stderr


def test_the_bundle_carries_the_pure_build(launcher: Path) -> None:
    # A compiled build of the checkout is made for one Python; the extension runs on any.
    package = launcher.parent / "mfls"
    compiled = [p.name for p in package.rglob("*") if p.suffix in (".so", ".pyd")]
    assert compiled == [] and not (package / "_compiled.py").exists()
    assert (package / "syntax" / "scanner.py").is_file()


def test_the_server_starts_from_bytecode_on_the_python_that_packaged_it(tmp_path: Path) -> None:
    """Issue 22 (first problem within 2 s): the package holds the bundle's bytecode for the
    Python that made it, never checked against the source, so a first start on that
    version compiles nothing (some 160 modules otherwise)."""
    vsix = require_path(EDITORS / "vscode" / "mfls.vsix", "the extension package (npm run package)")
    with zipfile.ZipFile(vsix) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path)
    tags = {found.group(1) for n in names if (found := re.search(r"\.cpython-3(\d+)\.pyc$", n))}
    assert len(tags) == 1, f"bytecode for {sorted(tags)}"
    version = (3, int(tags.pop()))
    python = _pythons().get(version)
    if python is None:
        pytest.skip(f"no Python {version[0]}.{version[1]} (the one that packaged) here")
    server = tmp_path / "extension" / "server"
    shipped = set(server.rglob("*.pyc"))
    ran = _in_bundle(python, server, "import mfls.cli, mfls.lsp.server, mfls.lsp.routes", 120)
    assert ran.returncode == 0, ran.stderr
    assert sorted(set(server.rglob("*.pyc")) - shipped) == []


COUNT_ATTRS_COMPILES = """
import builtins, sys
sys.path.insert(0, sys.argv[1])
import attrs_code
reused = attrs_code.reuse() if sys.argv[2] == "reuse" else False
compiled = [0]
real_compile = builtins.compile


def counting(source, filename, *args, **kwargs):
    compiled[0] += str(filename).startswith("<attrs generated")
    return real_compile(source, filename, *args, **kwargs)


builtins.compile = counting
import mfls.lsp.routes, mfls.lsp.wire
from lsprotocol import types as t
from pygls.protocol import default_converter

made = t.InitializeParams(capabilities=t.ClientCapabilities(), process_id=7)
print(reused, compiled[0])
print(repr(made), made == t.InitializeParams(capabilities=t.ClientCapabilities(), process_id=7))
print(default_converter().unstructure(made))
"""


def test_the_server_compiles_no_attrs_method_on_the_python_that_packaged_it(
    tmp_path: Path,
) -> None:
    """Issue 32 (first problem within 2 s): the package holds the code of the methods
    attrs writes for lsprotocol's classes, compiled for the Python that made it
    (`attrs_code.py`); the launcher reuses it, so a start on that version compiles almost
    none of them, and the classes are the same as attrs compiling them."""
    vsix = require_path(EDITORS / "vscode" / "mfls.vsix", "the extension package (npm run package)")
    with zipfile.ZipFile(vsix) as archive:
        archive.extractall(tmp_path)
    server = tmp_path / "extension" / "server"
    stores = sorted(p.name for p in server.glob("attrs-code.cpython-3*.marshal"))
    assert len(stores) == 1, stores
    version = (3, int(stores[0].split(".")[1].removeprefix("cpython-3")))
    python = _pythons().get(version)
    if python is None:
        pytest.skip(f"no Python {version[0]}.{version[1]} (the one that packaged) here")
    assert "attrs_code.reuse()" in (server / "launch.py").read_text(encoding="utf-8")

    def run(mode: str) -> list[str]:
        ran = subprocess.run(
            [python, "-I", "-B", "-c", COUNT_ATTRS_COMPILES, str(server), mode],
            capture_output=True,
            text=True,
            env=_clean_env(),
            check=False,
            timeout=120,
        )
        assert ran.returncode == 0, ran.stderr
        return ran.stdout.splitlines()

    reused, compiled = run("reuse"), run("compile")
    (was_reused, left), (not_reused, all_of_them) = reused[0].split(), compiled[0].split()
    assert (was_reused, not_reused) == ("True", "False")
    # A hashable class's methods hold a hash of a string, new in each process: compiled.
    assert int(all_of_them) > 500 and int(left) <= int(all_of_them) // 100
    assert reused[1:] == compiled[1:]
    assert reused[1].endswith(" True")
