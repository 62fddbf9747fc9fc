"""The playground (editors/web) in headless chromium, as a person uses it: the built site is
served on localhost, mfls starts in the page's Web Worker on Pyodide, and the driver
(`web_playground.cjs`) waits for the example course's problems, takes a quick fix, completes
`{{ Wh`, goes to a binding in another lesson, hovers a marker, renames a key with F2 and reads
the course map. What the page shows is compared with what `mfls check` says of the same
course, and with the lessons' text after each edit.

The site is built by `npm run build` in editors/web (scripts/setup-editors.sh does it);
this test builds nothing. `MFLS_UPDATE_SCREENSHOT=1` also copies its screenshot to
docs/playground.png, the one the README shows."""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from editor_harness import (
    EDITORS,
    REPO,
    isolated_env,
    require_executable,
    require_path,
    run_bounded,
)

WEB = EDITORS / "web"
SITE = WEB / "dist"
DRIVER = Path(__file__).with_name("web_playground.cjs")
SCREENSHOT = REPO / "docs" / "playground.png"
OLD_KEY = "What would you like to learn?"
NEW_KEY = "Which language will you learn?"
LESSON_1, LESSON_2, LESSON_3 = (
    "lessons/01-welcome.md",
    "lessons/02-first-program.md",
    "lessons/03-practice.md",
)


def example_course() -> dict[str, str]:
    """The course the page opens with, read from its source (`src/course.js`)."""
    source = (WEB / "src" / "course.js").read_text(encoding="utf-8")
    body = source[source.index("{") : source.rindex("}") + 1]
    course: dict[str, str] = json.loads(body)
    return course


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def site_url() -> Iterator[str]:
    """The built site on a free localhost port, for the length of the test."""
    require_path(SITE / "index.html", "the playground's site (cd editors/web && npm run build)")
    handler = functools.partial(_Quiet, directory=str(SITE))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def checked(course: dict[str, str], root: Path) -> list[str]:
    """`mfls check`'s problems of the course, as the page's problem list writes them."""
    for name, text in course.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    found = subprocess.run(
        [sys.executable, "-m", "mfls", "check", "--format", "json", str(root)],
        capture_output=True,
        text=True,
        check=False,
    )
    rows = json.loads(found.stdout)["diagnostics"]
    return [
        f"{Path(r['path']).relative_to(root).as_posix()}:{r['line']} {r['code']}: {r['message']}"
        for r in rows
    ]


def test_the_playground_in_chromium(
    site_url: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tmp_path = tmp_path_factory.mktemp("web")  # short: chromium's socket path is bounded
    node = require_executable("node")
    chromium = require_executable("chromium")
    modules = require_path(WEB / "node_modules", "editors/web's npm packages (npm ci)")
    require_path(modules / "playwright-core", "playwright-core (npm ci in editors/web)")
    course = example_course()
    expected_problems = checked(course, tmp_path / "course")
    results, shot = tmp_path / "results.json", tmp_path / "playground.png"
    env = isolated_env(
        tmp_path / "home",
        {
            "MFLS_NODE_MODULES": str(modules),
            "MFLS_URL": site_url,
            "MFLS_CHROMIUM": chromium,
            "MFLS_RESULTS": str(results),
            "MFLS_SHOT": str(shot),
        },
    )
    finished = run_bounded([node, str(DRIVER)], env=env, cwd=tmp_path, timeout=240)
    if not results.exists():
        pytest.fail(f"the driver wrote no results:\n{finished.stdout}\n{finished.stderr}")
    data = json.loads(results.read_text(encoding="utf-8"))
    steps = data["steps"]
    print(json.dumps(steps.get("problems", {}), ensure_ascii=False, indent=1))
    assert not data["errors"], f"{data['errors']}\nconsole: {data['console']}"

    # Nothing but the page's own origin is asked for anything.
    origin = urlsplit(site_url).netloc
    foreign = [url for url in data["requests"] if urlsplit(url).netloc != origin]
    assert not foreign, foreign
    assert any(url.endswith("/pyodide/pyodide.asm.wasm") for url in data["requests"])

    # 1. The problems on screen are mfls check's, and lesson 2 underlines both markers.
    problems = steps["problems"]
    assert problems["list"] == expected_problems
    assert [p.split(" ", 1)[1].split(":")[0] for p in expected_problems] == [
        "near-miss",
        "unbound-reference",
    ]
    assert problems["status"].startswith("mfls 0.1.0, Python 3.14")
    assert f"{LESSON_2}2" in problems["files"]  # its problem count beside its name
    assert steps["underlines"] == {
        "ranges": ["{{ What would you like to lern? }}", "{{ What is your preferred editor? }}"],
        "gutter": 2,
    }

    # Semantic highlighting: lesson 1's two interactions, their keys marked as bindings.
    semantic = [tuple(pair) for pair in steps["semantic"]]
    assert [text for kind, text in semantic if "cm-mfls-declaration" in kind] == [
        f"{{{{ {OLD_KEY} }}}}",
        "{{ How many hours per week can you study? }}",
    ]
    assert [text for kind, text in semantic if kind == "cm-mfls-operator"].count("?[") == 2

    # 2. The near miss's quick fix puts the bound key in its place.
    assert steps["quickFix"] == {
        "title": f"Replace with {{{{ {OLD_KEY} }}}}",
        "line": f"Start from what the learner said about {{{{ {OLD_KEY} }}}}.",
    }

    # 3. `{{ Wh` offers the course's keys that start so, the bound one first.
    completion = steps["completion"]
    assert completion["offered"][0].startswith(OLD_KEY)
    assert "bound in 01-welcome.md" in completion["offered"][0]
    assert any(o.startswith("What is your preferred editor?") for o in completion["offered"])
    assert completion["lastLine"] == f"Recall {{{{ {OLD_KEY} }}}}"
    assert completion["shown"] == completion["lastLine"]

    # 4. F12 on a read in lesson 3 shows lesson 1 at the interaction that binds the key.
    assert steps["definition"] == {
        "current": LESSON_1,
        "line": f"?[{{{{ {OLD_KEY} }}}} Python | JavaScript | ...Another topic]",
        "column": 5,
    }

    # Shift-F12 there lists the key's binding and reads in every lesson.
    references = steps["references"]
    assert references["files"] == ["01-welcome.md", "02-first-program.md", "03-practice.md"]
    assert [int(line.split(":")[0]) for line in references["lines"]] == [7, 3, 8, 7, 10]

    # 5. The hover names the exact key and where it is bound and read.
    tooltip = steps["hover"]["tooltip"]
    assert tooltip.startswith("How many hours per week can you study?")
    assert "Bound in 01-welcome.md:11." in tooltip
    assert "Read once in 1 document of Playground." in tooltip
    assert steps["hover"]["href"].startswith("file:///course/lessons/01-welcome.md")
    assert steps["hover"]["followed"] == {"url": site_url, "line": 11}

    # 6. F2 renames the key in every lesson, reads and binding alike.
    texts = steps["rename"]["texts"]
    assert {name: text.count(f"{{{{ {NEW_KEY} }}}}") for name, text in texts.items()} == {
        LESSON_1: 1,
        LESSON_2: 2,
        LESSON_3: 2,
    }
    assert not any(OLD_KEY in text for text in texts.values())
    assert texts[LESSON_2] == course[LESSON_2].replace(
        "What would you like to lern?", OLD_KEY
    ).replace(OLD_KEY, NEW_KEY)
    assert f"?[{{{{ {NEW_KEY} }}}} Python" in steps["rename"]["shown"]

    # 7. The course map follows the rename.
    course_map = steps["map"]["text"]
    assert "3 lessons" in course_map and NEW_KEY in course_map and OLD_KEY not in course_map

    # 8. A lesson added through the file list binds the key lesson 2 reads; renamed, it
    # still does; deleted, the problem is back.
    files = steps["files"]
    lessons = [LESSON_1, LESSON_2, LESSON_3]
    assert files["added"] == {
        "list": ["mfcourse.toml", *lessons, "lessons/04-editor.md"],
        "unbound": 0,
        "text": "# New lesson\n\n?[{{ What is your preferred editor? }} Vim | Emacs | VS Code]\n",
    }
    assert files["renamed"] == {
        "list": ["mfcourse.toml", *lessons, "lessons/05-editor.md"],
        "unbound": 0,
    }
    assert files["deleted"] == {"list": ["mfcourse.toml", *lessons], "unbound": 1}

    assert shot.stat().st_size > 10_000
    if os.environ.get("MFLS_UPDATE_SCREENSHOT") == "1":
        shutil.copyfile(shot, SCREENSHOT)
