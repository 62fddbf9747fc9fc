"""Real VS Code (code-server 4.x) in headless chromium, with the packaged mfls extension."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from editor_harness import (
    EDITORS,
    Check,
    checks_of,
    code_server_profile,
    code_server_tools,
    code_server_trace,
    copy_course,
    isolated_env,
    missing,
    passed,
    path_without_mfls,
    require_path,
    run_bounded,
    run_browser_driver,
    server_capabilities,
    serving_code_server,
)

DRIVER = Path(__file__).with_name("vscode_e2e.cjs")
STUB_PYTHON_EXTENSION = Path(__file__).with_name("stub-python-extension")
WAIT_MS = 30_000
# A field mfls ignores, appended to the course file: a warning at this line of it.
BAD_FIELD = 'colour-scheme = "dark"\n'
# A Python 3.9 as the extension meets it: its version when probed, launch.py's refusal.
OLD_PYTHON = """#!/bin/sh
case "$*" in
  *launch.py*) echo "mfls needs Python 3.10 or later, not 3.9.18" >&2; exit 1 ;;
  *) echo 3.9.18 ;;
esac
"""


@dataclass
class Session:
    checks: dict[str, Check]
    course: Path
    capabilities: dict[str, object]
    trace: str  # the "MarkdownFlow Trace" output channel (mfls.trace.server = messages)
    extensions: Path  # where code-server installed the extensions
    stub_python: str  # the interpreter the stub Python extension reports as selected
    path_python: str  # `python3` on the PATH code-server runs with
    server_log: str  # the "MarkdownFlow" output channel


def _stub_python_extension(node: str, work: Path) -> Path:
    """The stub of the Python extension's API, packaged with the extension's own vsce."""
    source = work / "stub-python-extension"
    shutil.copytree(STUB_PYTHON_EXTENSION, source)
    vsce = require_path(
        EDITORS / "vscode" / "node_modules" / "@vscode" / "vsce" / "vsce",
        "vsce (npm ci in editors/vscode)",
    )
    vsix = work / "stub-python.vsix"
    packaged = run_bounded(
        [
            node,
            str(vsce),
            "package",
            "--no-dependencies",
            "--allow-missing-repository",
            "--skip-license",
            "-o",
            str(vsix),
        ],
        env=dict(os.environ),
        cwd=source,
        timeout=120,
    )
    assert packaged.returncode == 0, packaged.stdout + packaged.stderr
    return vsix


@pytest.fixture(scope="module")
def vscode_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    tools = code_server_tools()
    node, code_server, vsix = tools.node, tools.code_server, tools.vsix

    work = tmp_path_factory.mktemp("vscode")
    course = copy_course(work)
    (course / "scratch.mdflow").write_text("An empty marker {{ }} is an error.\n", encoding="utf-8")
    course_file = course / "mfcourse.toml"
    course_file.write_text(course_file.read_text(encoding="utf-8") + BAD_FIELD, encoding="utf-8")
    bad_line = len(course_file.read_text(encoding="utf-8").splitlines())
    _ai_shifu_course_folder(course / "ai-course")
    capabilities = server_capabilities(work)

    # mfls neither on PATH nor importable: the extension must run the server it carries.
    env = isolated_env(work / "home")
    env.pop("PYTHONPATH", None)
    env["PATH"] = path_without_mfls(env.get("PATH", ""))
    assert shutil.which("mfls", path=env["PATH"]) is None
    path_python = shutil.which("python3", path=env["PATH"])
    if path_python is None:
        missing("python3 outside the folders holding mfls")
    assert path_python is not None
    importable = subprocess.run(
        [path_python, "-c", "import mfls"], env=env, cwd=work, capture_output=True, check=False
    )
    assert importable.returncode != 0, f"{path_python} can import mfls"
    # The interpreter "selected in the Python extension": a venv of that python3.
    venv = work / "stub-venv"
    made = run_bounded(
        [path_python, "-m", "venv", "--without-pip", str(venv)], env=env, cwd=work, timeout=120
    )
    assert made.returncode == 0, made.stdout + made.stderr
    stub_python = str(venv / "bin" / "python")
    old_python = work / "python3.9"
    old_python.write_text(OLD_PYTHON, encoding="utf-8")
    old_python.chmod(0o755)

    settings = {
        "mfls.trace.server": "messages",
        "stubPython.interpreter": stub_python,
        "files.autoSave": "off",
        # The settings are typed into settings.json: no brackets or quotes typed for us.
        "editor.autoClosingBrackets": "never",
        "editor.autoClosingQuotes": "never",
        "editor.autoIndent": "none",
        "editor.autoSurround": "never",
    }
    profile = code_server_profile(
        str(code_server), work, [vsix, _stub_python_extension(node, work)], settings, env
    )
    user_data, extensions, common = profile.user_data, profile.extensions, profile.args

    log = work / "code-server.log"
    with serving_code_server(common, course, env=env, cwd=work, log=log) as url:
        extra = {
            "MFLS_RENAME": "1" if capabilities.get("renameProvider") else "0",
            "MFLS_SETTINGS": str(user_data / "User" / "settings.json"),
            "MFLS_TOML_LINE": str(bad_line),
            "MFLS_OLD_PYTHON": str(old_python),
        }
        data, _ = run_browser_driver(tools, DRIVER, url, course, work, env, extra, WAIT_MS, 420)
        checks = checks_of(data)
    trace = code_server_trace(checks, work, user_data)
    server_log = "".join(
        path.read_text(encoding="utf-8", errors="replace")
        for path in sorted((user_data / "logs").rglob("*-MarkdownFlow.log"))
    )
    yield Session(
        checks, course, capabilities, trace, extensions, stub_python, path_python, server_log
    )


def _ai_shifu_course_folder(folder: Path) -> None:
    """A course folder as the AI-Shifu course tool writes it (no diagnostics)."""
    lessons = [{"file": f"lesson-0{n}.md", "title": f"Lesson {n}"} for n in (1, 2)]
    structure = {"chapters": [{"title": "One", "lessons": lessons}]}
    (folder / "lessons").mkdir(parents=True)
    (folder / "structure.json").write_text(json.dumps(structure, indent=2) + "\n")
    (folder / "README.md").write_text("# An AI-Shifu course\n")
    (folder / "lessons" / "lesson-01.md").write_text("?[%{{ ai_goal }}...Your goal]\n")
    (folder / "lessons" / "lesson-02.md").write_text("Aim for {{ ai_goal }}.\n")


def _passed(session: Session, name: str) -> Check:
    return passed(session.checks, name)


def test_extension_starts_server(vscode_session: Session) -> None:
    _passed(vscode_session, "activation")


def test_status_item_shows_indexing_progress(vscode_session: Session) -> None:
    _passed(vscode_session, "progress")


def test_diagnostic_squiggle(vscode_session: Session) -> None:
    _passed(vscode_session, "diagnostics")


def test_hover_shows_exact_key(vscode_session: Session) -> None:
    _passed(vscode_session, "hover")


def test_definition_jumps_to_binding_in_other_lesson(vscode_session: Session) -> None:
    _passed(vscode_session, "definition")


def test_code_lens_counts_reads_and_shows_references(vscode_session: Session) -> None:
    _passed(vscode_session, "codeLens")


def test_interaction_snippet_after_the_opener(vscode_session: Session) -> None:
    _passed(vscode_session, "snippets")


def test_hover_place_link_opens_the_binding_line(vscode_session: Session) -> None:
    _passed(vscode_session, "hoverLink")


def test_course_file_glob_links_to_its_first_lesson(vscode_session: Session) -> None:
    _passed(vscode_session, "documentLink")


def test_completion_offers_course_key(vscode_session: Session) -> None:
    _passed(vscode_session, "completion")


def test_a_space_after_the_opener_keeps_the_keys_first(vscode_session: Session) -> None:
    """Issue 22: typing `{{ ` leaves the course's keys on screen, before any snippet; a
    space in plain text opens no list."""
    _passed(vscode_session, "completionSpace")


def test_rename_updates_two_files(vscode_session: Session) -> None:
    if not vscode_session.capabilities.get("renameProvider"):
        pytest.skip("the server does not advertise renameProvider")
    _passed(vscode_session, "rename")
    course = vscode_session.course
    for lesson in ("02-first-program.md", "03-practice.md"):
        text = (course / "lessons" / lesson).read_text(encoding="utf-8")
        assert "{{ How was your first program? }}" in text, f"{lesson} was not renamed"
        assert "How did the first program go?" not in text, f"{lesson} still holds the old key"


def test_restart_command_restarts_server(vscode_session: Session) -> None:
    _passed(vscode_session, "restart")


def test_mdflow_file_is_markdownflow_and_served(vscode_session: Session) -> None:
    _passed(vscode_session, "mdflow")


def _running_server(check: Check) -> tuple[Path, str]:
    found = json.loads(check.detail.split("\n(screenshots")[0])
    return Path(found["server"]), str(found["python"])


def test_bundled_server_runs_with_the_python_extensions_interpreter(
    vscode_session: Session,
) -> None:
    """mfls neither on PATH nor importable: the server runs from the extension's own copy,
    started by the interpreter the (stubbed) Python extension reports as selected."""
    server, python = _running_server(_passed(vscode_session, "bundled"))
    bundled = [
        p / "server" / "mfls" / "__init__.py" for p in vscode_session.extensions.glob("mfls.mfls-*")
    ]
    assert bundled and server.resolve() in [p.resolve() for p in bundled], server
    assert python == vscode_session.stub_python


def test_a_selected_python_too_old_is_passed_over_for_python3_on_path(
    vscode_session: Session,
) -> None:
    """The bundled server starts with the selected interpreter unprobed (the probe took the
    processors the start needs); a Python 3.9 does not run it, and the extension probes,
    says why it passes it over, and starts the server with python3."""
    server, python = _running_server(_passed(vscode_session, "oldPython"))
    assert server.is_relative_to(vscode_session.extensions), server
    assert python == vscode_session.path_python
    log = vscode_session.server_log
    assert "mfls needs Python 3.10 or later, not 3.9.18" in log, log[-3000:]
    assert "looking for a Python that can run it" in log, log[-3000:]
    assert "python3.9): Python 3.9.18 is too old" in log, log[-3000:]


def test_bundled_server_runs_with_python3_on_path_without_a_selected_interpreter(
    vscode_session: Session,
) -> None:
    server, python = _running_server(_passed(vscode_session, "pathPython"))
    assert server.is_relative_to(vscode_session.extensions), server
    assert python == vscode_session.path_python


def test_status_item_shows_the_course_of_the_active_lesson(vscode_session: Session) -> None:
    _passed(vscode_session, "statusCourse")


def test_status_menu_opens_the_course_file_with_its_problem(vscode_session: Session) -> None:
    _passed(vscode_session, "menu")


def test_problems_panel_lists_closed_lessons_and_the_course_file(vscode_session: Session) -> None:
    _passed(vscode_session, "problems")


def test_wrong_server_path_is_reported_with_install_hint(vscode_session: Session) -> None:
    _passed(vscode_session, "startFailure")


def test_trace_setting_reaches_client_and_progress_arrives(vscode_session: Session) -> None:
    trace = vscode_session.trace
    assert "Sending request 'initialize" in trace, "mfls.trace.server=messages traced nothing"
    assert "Received request 'window/workDoneProgress/create" in trace, trace[-3000:]
    assert "Received notification '$/progress'" in trace, trace[-3000:]


def test_renaming_a_lesson_in_the_file_tree_keeps_structure_json(vscode_session: Session) -> None:
    _passed(vscode_session, "fileTreeRename")
    folder = vscode_session.course / "ai-course"
    listed = json.loads((folder / "structure.json").read_text(encoding="utf-8"))
    assert [lesson["file"] for lesson in listed["chapters"][0]["lessons"]] == [
        "intro.md",
        "lesson-02.md",
    ]
    assert (folder / "lessons" / "intro.md").read_text() == "?[%{{ ai_goal }}...Your goal]\n"


def test_inlay_hints_show_where_a_read_key_is_asked(vscode_session: Session) -> None:
    _passed(vscode_session, "inlayHints")
