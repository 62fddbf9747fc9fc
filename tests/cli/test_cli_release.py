"""The release artifacts: `python -m build` (pure: `MFLS_BUILD=pure`) gives an sdist and a
wheel, and `pipx install` of the wheel, in an environment of its own, gives an `mfls` that
answers `--version` and checks a course exactly as the checkout does.

`scripts/setup-test-env.sh` builds both once into `dist/`; when they are missing or older
than the sources, the test builds them itself into a temporary folder.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["version"]
WHEEL = f"mfls-{VERSION}-py3-none-any.whl"
SDIST = f"mfls-{VERSION}.tar.gz"


def run(args: list[str], *, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        args, env=env, cwd=cwd, capture_output=True, text=True, encoding="utf-8", timeout=600
    )


def newest_source() -> float:
    """When the sources a build reads last changed."""
    files = [*(ROOT / "mfls").rglob("*.py"), *(ROOT / "mfls").rglob("*.json")]
    files += [ROOT / name for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md")]
    return max(path.stat().st_mtime for path in files if path.exists())


def outside_env(**extra: str) -> dict[str, str]:
    """This environment without what would make the checkout importable."""
    env = {k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "MFLS_PURE"}}
    return {**env, **extra}


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The sdist and the pure wheel: setup's, or built now when those are missing or stale."""
    folder = ROOT / "dist"
    sdist, wheel = folder / SDIST, folder / WHEEL
    fresh = sdist.exists() and wheel.exists()
    if not fresh or min(sdist.stat().st_mtime, wheel.stat().st_mtime) < newest_source():
        folder = tmp_path_factory.mktemp("dist")
        command = [sys.executable, "-m", "build", "--outdir", str(folder), str(ROOT)]
        done = run(command, env=outside_env(MFLS_BUILD="pure"), cwd=ROOT)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        assert sorted(p.name for p in folder.iterdir()) == [WHEEL, SDIST], list(folder.iterdir())
    return folder / SDIST, folder / WHEEL


def test_the_sdist_holds_the_sources_and_no_build_leftovers(
    artifacts: tuple[Path, Path],
) -> None:
    sdist, _ = artifacts
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    for needed in ("pyproject.toml", "setup.py", "README.md", "LICENSE", "mfls/cli/__init__.py"):
        assert needed in names, sorted(names)
    assert "mfls/_compiled.py" not in names
    assert not [name for name in names if name.endswith((".so", ".pyd"))]


def test_the_pure_wheel_holds_no_compiled_module_or_manifest(
    artifacts: tuple[Path, Path],
) -> None:
    _, wheel = artifacts
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    assert "mfls/syntax/scanner.py" in names
    assert "mfls/_compiled.py" not in names
    assert not [name for name in names if name.endswith((".so", ".pyd"))]


def test_pipx_install_of_the_wheel_gives_a_working_mfls(
    artifacts: tuple[Path, Path], tmp_path: Path
) -> None:
    _, wheel = artifacts
    bin_dir = tmp_path / "bin"
    env = outside_env(
        PIPX_HOME=str(tmp_path / "pipx"),
        PIPX_BIN_DIR=str(bin_dir),
        PIPX_MAN_DIR=str(tmp_path / "man"),
        HOME=str(tmp_path / "home"),
    )
    done = run([sys.executable, "-m", "pipx", "install", str(wheel)], env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    mfls = bin_dir / "mfls"
    assert mfls.exists(), sorted(p.name for p in bin_dir.iterdir())

    version = run([str(mfls), "--version"], env=env, cwd=tmp_path)
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith(f"mfls {VERSION}, pure Python, Python "), version.stdout
    python = tmp_path / "pipx" / "venvs" / "mfls" / "bin" / "python"
    where = run([str(python), "-c", "import mfls; print(mfls.__file__)"], env=env, cwd=tmp_path)
    assert where.stdout.startswith(str(tmp_path / "pipx")), where.stdout + where.stderr

    course = ROOT / "examples" / "course"
    installed = run([str(mfls), "check", str(course)], env=env, cwd=tmp_path)
    checkout = run(
        [sys.executable, "-m", "mfls", "check", str(course)],
        env=outside_env(PYTHONPATH=str(ROOT)),
        cwd=tmp_path,
    )
    # The example course holds deliberate mistakes: exit 1, and the same findings.
    assert installed.returncode == 1, installed.stdout + installed.stderr
    assert "error marker-unclosed" in installed.stdout
    assert installed.stdout == checkout.stdout


def test_every_install_advice_gives_the_same_working_command() -> None:
    # No package named mfls is published: `pip install mfls` would install a stranger's.
    advice = [ROOT / "README.md", ROOT / "editors" / "README.md"]
    advice.append(ROOT / "editors" / "nvim" / "doc" / "mfls.txt")
    for path in advice:
        assert "pipx install /path/to/mfls" in path.read_text("utf-8"), path
    sources = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]
    for folder in ("nvim", "vscode/src"):
        sources += [p for p in (ROOT / "editors" / folder).rglob("*") if p.is_file()]
    sources += [ROOT / "editors" / "README.md", ROOT / "editors" / "vscode" / "README.md"]
    wrong = re.compile(r"pip3? install (?:-U |--upgrade )?mfls\b")
    for path in sources:
        if path.exists():
            text = path.read_text("utf-8", errors="replace")
            assert not wrong.search(text), f"{path}: {wrong.search(text)}"
    # The Neovim plugin's error: tests/editors/test_editor_nvim_keys.py.
