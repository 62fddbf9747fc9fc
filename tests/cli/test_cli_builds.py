"""The two builds: `mfls --version` names the one running, `MFLS_PURE=1` runs the Python
modules, compiled modules never run against changed sources, and both builds print
the same scan.

The tests that need a compiled build skip without one, except in the compiled run of
`scripts/run-tests.sh` (`MFLS_EXPECT_BUILD=compiled`), where they must run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "mfls"
VERSION = re.compile(
    r"mfls (?P<version>\d+\.\d+\.\d+), "
    r"(?P<build>compiled \(mypyc\)|pure Python(?: \((?P<why>.+)\))?), "
    r"Python (?P<python>\d+\.\d+\.\d+)"
)
LOADERS = """
import json, sys
import mfls.cli, mfls.syntax.scanner, mfls.syntax.document, mfls.text.line_index
print(json.dumps({name: type(module.__loader__).__name__
                  for name, module in sorted(sys.modules.items()) if name.startswith("mfls.")}))
"""


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"MFLS_PURE", "PYTHONPATH"}}
    return {**env, **extra}


def run(args: list[str], root: Path = ROOT, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=root,
        env=clean_env(PYTHONPATH=str(root), **extra),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


def version(root: Path = ROOT, **extra: str) -> re.Match[str]:
    done = run(["-m", "mfls", "--version"], root, **extra)
    assert done.returncode == 0, done.stderr
    found = VERSION.fullmatch(done.stdout.rstrip("\n"))
    assert found is not None, done.stdout
    return found


def loaders(root: Path = ROOT, **extra: str) -> dict[str, str]:
    done = run(["-c", LOADERS], root, **extra)
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def compiled_build_present() -> bool:
    present = (PACKAGE / "_compiled.py").exists()
    if not present and os.environ.get("MFLS_EXPECT_BUILD") == "compiled":
        pytest.fail("MFLS_EXPECT_BUILD=compiled, but mfls/_compiled.py is missing")
    return present


def test_version_names_the_build_that_runs_and_the_python() -> None:
    found = version()
    from mfls import __version__

    assert found["version"] == __version__
    assert found["python"] == ".".join(map(str, sys.version_info[:3]))
    scanner = loaders()["mfls.syntax.scanner"]
    assert (found["build"] == "compiled (mypyc)") == (scanner == "ExtensionFileLoader")


def test_mfls_pure_runs_every_module_from_its_python_source() -> None:
    found = version(MFLS_PURE="1")
    assert found["build"].startswith("pure Python")
    assert set(loaders(MFLS_PURE="1").values()) == {"SourceFileLoader"}


@pytest.fixture
def copied(tmp_path: Path) -> Path:
    """A copy of the checkout's package, compiled modules and manifest included."""
    shutil.copytree(PACKAGE, tmp_path / "mfls", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_a_compiled_build_runs_compiled_modules() -> None:
    if not compiled_build_present():
        pytest.skip("no compiled build in this checkout")
    found = version()
    assert found["build"] == "compiled (mypyc)", found[0]
    compiled = {name for name, kind in loaders().items() if kind == "ExtensionFileLoader"}
    assert {"mfls.syntax.scanner", "mfls.syntax.document", "mfls.text.line_index"} <= compiled
    assert "mfls.cli" not in compiled


def test_compiled_modules_older_than_their_sources_never_run(copied: Path) -> None:
    if not compiled_build_present():
        pytest.skip("no compiled build in this checkout")
    assert version(copied)["build"] == "compiled (mypyc)"
    lesson = "?[{{ q }} A | B]\n\nUse {{ q }} and {{ }}.\n"
    (copied / "a.md").write_text(lesson, encoding="utf-8")
    fresh = run(["-m", "mfls", "scan", "--json", "a.md"], copied)
    # A module nobody compiled may change: the compiled ones still run.
    with (copied / "mfls" / "cli" / "scan.py").open("a", encoding="utf-8") as source:
        source.write("\n# changed\n")
    assert version(copied)["build"] == "compiled (mypyc)"
    # A compiled module's source changes: every mfls module runs from its source.
    with (copied / "mfls" / "syntax" / "keys.py").open("a", encoding="utf-8") as source:
        source.write("\n# changed\n")
    found = version(copied)
    assert found["build"].startswith("pure Python")
    assert (
        found["why"] == "the compiled modules are older than their sources: syntax/keys.py changed"
    )
    assert set(loaders(copied).values()) == {"SourceFileLoader"}
    stale = run(["-m", "mfls", "scan", "--json", "a.md"], copied)
    assert (stale.returncode, stale.stdout) == (fresh.returncode, fresh.stdout)
    assert json.loads(stale.stdout)["markers"]


def test_a_removed_manifest_runs_the_python_modules(copied: Path) -> None:
    if not compiled_build_present():
        pytest.skip("no compiled build in this checkout")
    (copied / "mfls" / "_compiled.py").unlink()
    assert version(copied)["build"] == "pure Python"
    assert set(loaders(copied).values()) == {"SourceFileLoader"}


def test_both_builds_scan_the_example_course_alike() -> None:
    if not compiled_build_present():
        pytest.skip("no compiled build in this checkout")
    lessons = sorted((ROOT / "examples").rglob("*.md"))
    assert lessons
    for lesson in lessons:
        args = ["-m", "mfls", "scan", "--json", str(lesson)]
        compiled, pure = run(args), run(args, MFLS_PURE="1")
        assert compiled.returncode == pure.returncode == 0, compiled.stderr + pure.stderr
        assert compiled.stdout == pure.stdout, lesson
    check = ["-m", "mfls", "check", "--format", "json", str(ROOT / "examples" / "course")]
    compiled, pure = run(check), run(check, MFLS_PURE="1")
    assert (compiled.returncode, compiled.stdout) == (pure.returncode, pure.stdout)


def test_a_changed_module_the_compiled_ones_import_runs_the_python_modules(
    copied: Path,
) -> None:
    if not compiled_build_present():
        pytest.skip("no compiled build in this checkout")
    # mfls/text/lines.py is not compiled, but the compiled scanner imports it.
    with (copied / "mfls" / "text" / "lines.py").open("a", encoding="utf-8") as source:
        source.write("\n# changed\n")
    found = version(copied)
    assert found["why"] == (
        "the compiled modules are older than their sources: text/lines.py changed"
    )


def test_both_builds_read_every_corpus_alike() -> None:
    """The differential test of the two builds: the pure run of scripts/run-tests.sh takes
    only the suites whose result can depend on the build, and this compares everything the
    compiled modules compute (scans, incremental edits, positions in every encoding, places,
    grouping) with the pure modules' answers on the conformance inputs, the CommonMark
    examples, the example course and generated lessons."""
    if not compiled_build_present():
        pytest.skip("no compiled build in this checkout")
    script = ["tests/cli/builds_corpus.py"]
    assert loaders()["mfls.syntax.scanner"] == "ExtensionFileLoader"
    compiled, pure = run(script), run(script, MFLS_PURE="1")
    assert compiled.returncode == pure.returncode == 0, compiled.stderr + pure.stderr
    compiled_readings, pure_readings = json.loads(compiled.stdout), json.loads(pure.stdout)
    assert len(compiled_readings) == len(pure_readings) > 1000
    pairs = enumerate(zip(compiled_readings, pure_readings, strict=True))
    differing = [n for n, (compiled_one, pure_one) in pairs if compiled_one != pure_one]
    assert differing == []
    # An edited document reads as a fresh scan of its text, in the compiled build too.
    from mfls.syntax.scanner import scan

    for reading in compiled_readings[::25]:
        text, result = reading["edited"]
        assert result == scan(text).to_json()
