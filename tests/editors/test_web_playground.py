"""The playground (editors/web) in headless chromium, as a person uses it: the built site is
served on localhost, mfls starts in the page's Web Worker on Pyodide, and the driver
(`web_playground.cjs`) waits for the example course's problems, takes a quick fix, completes
`{{ Wh`, goes to a binding in another lesson, hovers a marker, renames a key with F2 and reads
the course map. What the page shows is compared with what `mfls check` says of the same
course, and with the lessons' text after each edit. The same session then refuses a broken
export, opens a real AI-Shifu export and its `mfls unpack` folder and saves each back
(compared byte for byte with the export and with `mfls pack`), shares a lesson by link,
checks the page's Content-Security-Policy, and opens the page in Simplified Chinese. The
Learner view shows a lesson as AI-Shifu's learner page does (compared with remark-flow run
in Node); exports nested 1,000 to 100,000 deep are refused and the page goes on, and a
worker whose Python failed fatally is restarted on the course. One browser session serves
every test here (`session`).

The site is built by `npm run build` in editors/web (scripts/setup-editors.sh does it);
this test builds nothing. `MFLS_UPDATE_SCREENSHOT=1` also copies its screenshot to
docs/playground.png, the one the README shows."""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar
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

from tests.ai_shifu_exports import shared_exports

WEB = EDITORS / "web"
SITE = WEB / "dist"
DRIVER = Path(__file__).with_name("web_playground.cjs")
SCREENSHOT = REPO / "docs" / "playground.png"
OLD_KEY = "What would you like to learn?"
NEW_KEY = "Which language will you learn?"
LEARNER_LESSON = """Ask the learner's level.

?[%{{level}} Beginner | Expert]

?[%{{What would you like to learn?}} Python | JavaScript]

?[%{{topics}} Loops || Functions || Classes]

?[%{{name}}...Your name]
"""
"""A lesson the Learner view shows (pasted under the new lesson's heading): interactions the
learner page reads, and one (a question-text key) it cannot."""
REMARK_FLOW = REPO / "tests" / "hosts" / "remark_flow"
DEEP = (1_000, 4_000, 10_000, 100_000)
"""How deep the exports nest that the page must refuse and survive (4,000 killed it)."""
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


class _Site(_Quiet):
    """The playground's site: records what is asked of it (the runtime's second load is
    served from the page's cache, not from here)."""

    asked: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.asked.append(self.path)
        super().do_GET()


class _Counting(_Quiet):
    """Another origin: counts what is asked of it (nothing should be)."""

    asked: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        self.asked.append(self.path)
        self.send_response(200)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()


@contextlib.contextmanager
def _served(handler: Any) -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def real_export() -> Path | None:
    """The largest real export (the one with the most lessons to open and save)."""
    folder = shared_exports()
    found = sorted(folder.glob("*.json"), key=lambda p: p.stat().st_size) if folder else []
    return found[-1] if found else None


def mfls(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mfls", *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"},
    )


def checked(course: dict[str, str], root: Path, locale: str = "en") -> list[str]:
    """`mfls check`'s problems of the course, as the page's problem list writes them."""
    for name, text in course.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    found = mfls("check", "--format", "json", "--locale", locale, str(root))
    rows = json.loads(found.stdout)["diagnostics"]
    return [
        f"{Path(r['path']).relative_to(root).as_posix()}:{r['line']} {r['code']}: {r['message']}"
        for r in rows
    ]


@dataclass
class Session:
    """One run of the driver: what it recorded, and what the tests compare it with."""

    data: dict[str, Any]
    url: str
    foreign_asked: list[str]
    site_asked: list[str]
    tmp: Path
    export: Path | None

    @property
    def steps(self) -> dict[str, Any]:
        steps: dict[str, Any] = self.data["steps"]
        return steps


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    """The built site on a free localhost port, another origin on another, and the
    driver's one browser session over both."""
    require_path(SITE / "index.html", "the playground's site (cd editors/web && npm run build)")
    tmp_path = tmp_path_factory.mktemp("web")  # short: chromium's socket path is bounded
    node = require_executable("node")
    chromium = require_executable("chromium")
    modules = require_path(WEB / "node_modules", "editors/web's npm packages (npm ci)")
    require_path(modules / "playwright-core", "playwright-core (npm ci in editors/web)")
    broken = tmp_path / "broken.json"
    broken.write_text('{"version": "1.0", "shifu": {"title": 3}}\n', encoding="utf-8")
    deep = [tmp_path / f"deep-{depth}.json" for depth in DEEP]
    for depth, file in zip(DEEP, deep, strict=True):
        file.write_text('{"version": "1.0", "x": ' + "[" * depth + "]" * depth + "}\n")
    export = real_export()
    folder = tmp_path / "unpacked"
    if export is not None:
        unpacked = mfls("unpack", str(export), str(folder))
        assert unpacked.returncode == 0, unpacked.stderr
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    results, shot = tmp_path / "results.json", tmp_path / "playground.png"
    _Counting.asked = []
    _Site.asked = []
    with (
        _served(functools.partial(_Site, directory=str(SITE))) as url,
        _served(_Counting) as foreign,
    ):
        env = isolated_env(
            tmp_path / "home",
            {
                "MFLS_NODE_MODULES": str(modules),
                "MFLS_URL": url,
                "MFLS_CHROMIUM": chromium,
                "MFLS_RESULTS": str(results),
                "MFLS_SHOT": str(shot),
                "MFLS_FOREIGN_URL": foreign,
                "MFLS_BROKEN": str(broken),
                "MFLS_DEEP": ",".join(map(str, deep)),
                "MFLS_LEARNER_LESSON": LEARNER_LESSON,
                "MFLS_DOWNLOADS": str(downloads),
                **({"MFLS_EXPORT": str(export), "MFLS_FOLDER": str(folder)} if export else {}),
            },
        )
        finished = run_bounded([node, str(DRIVER)], env=env, cwd=tmp_path, timeout=300)
        if not results.exists():
            pytest.fail(f"the driver wrote no results:\n{finished.stdout}\n{finished.stderr}")
        data = json.loads(results.read_text(encoding="utf-8"))
        yield Session(data, url, list(_Counting.asked), list(_Site.asked), tmp_path, export)


def test_the_playground_in_chromium(session: Session) -> None:
    data, steps, site_url, tmp_path = session.data, session.steps, session.url, session.tmp
    shot = tmp_path / "playground.png"
    course = example_course()
    expected_problems = checked(course, tmp_path / "course")
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
    assert [p.split(" ", 1)[1].split(":")[0] for p in expected_problems if LESSON_2 in p] == [
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
    # One request asks the fixes of every problem; each problem shows only its own. The
    # example is an AI-Shifu course, whose learner page reads no binding of a question-text
    # key: mfls offers no "Ask for" that would write one. A fix that silences the problem
    # where it is ("Ignore this problem here", where mfls offers it) names the problem's own
    # code.
    fix = steps["quickFix"]
    ignores = {"nearMissFixes": "near-miss", "unboundFixes": "unbound-reference"}
    for kind, code in ignores.items():
        ignoring = [f for f in fix[kind] if f.startswith("Ignore this")]
        assert ignoring in ([], [f"Ignore this problem here ({code})"]), fix[kind]
    own = {kind: [f for f in fix[kind] if not f.startswith("Ignore this")] for kind in ignores}
    assert {**fix, **own} == {
        "title": f"Replace with {{{{ {OLD_KEY} }}}}",
        "line": f"Start from what the learner said about {{{{ {OLD_KEY} }}}}.",
        "nearMissFixes": [f"Replace with {{{{ {OLD_KEY} }}}}"],
        "unboundFixes": [],
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
    # mfcourse.toml typed into is the course the server reads: lesson 3 put first reads the
    # renamed key before lesson 1 asks it; undone, the problem goes.
    moved = (
        "“Which language will you learn?” is read here before it is asked. In course order the"
        " question is first bound in 01-welcome.md. Ask it earlier, or tell the AI what to do"
        " while the answer is missing."
    )
    assert steps["courseFile"] == {
        "typed": 'lessons = ["lessons/03-*.md", "lessons/01-*.md", "lessons/02-*.md"]',
        "reordered": [
            f"lessons/03-practice.md:7 read-before-asked: {moved}",
            f"lessons/03-practice.md:10 read-before-asked: {moved}",
        ],
        "undone": {"same": True, "readBeforeAsked": []},
    }

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
    # A fix that names no problem (padding a marker) goes to the problem its edit touches.
    # (and "Ignore this problem here", where mfls offers it, to that problem too).
    assert [f for f in files["unpaddedFixes"] if not f.startswith("Ignore this")] == [
        "Pad marker to {{ What is your favourite colour? }}"
    ]
    assert set(files["unpaddedFixes"]) <= {
        "Pad marker to {{ What is your favourite colour? }}",
        "Ignore this problem here (unbound-reference)",
    }

    assert shot.stat().st_size > 10_000
    if os.environ.get("MFLS_UPDATE_SCREENSHOT") == "1":
        shutil.copyfile(shot, SCREENSHOT)


def course_files(folder: Path) -> list[str]:
    """The files of an unpacked course the page lists: its lessons, prompts and
    mfcourse.toml (not mfls's own `.mfls/`), in the file list's order."""
    names = [
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file()
        and p.suffix in (".md", ".toml")
        and not p.relative_to(folder).parts[0].startswith(".")
    ]
    return sorted(names, key=lambda n: (not n.endswith(".toml"), n))


def test_exports_and_folders_open_and_save_back(session: Session) -> None:
    steps = session.steps["courseFiles"]
    assert not session.data["errors"], session.data["errors"]

    # The example course is no export: saving it says mfls pack's reason.
    assert steps["exampleSave"].startswith("No export saved: no .mfls/ai-shifu-export.json (")
    assert steps["exampleSave"].endswith("not a folder made by `mfls unpack`")

    # A broken export, dropped on the page, is refused with mfls unpack's own message;
    # the course stays.
    broken = session.tmp / "broken.json"
    cli = mfls("unpack", str(broken), str(session.tmp / "never"))
    assert cli.returncode == 2
    reason = cli.stderr.strip().removeprefix("mfls unpack: ")
    assert reason.startswith("broken.json is not a usable AI-Shifu export: ")
    refused = steps["refused"]
    assert refused["message"] == f"Not opened: {reason}. The course on the page is unchanged."
    assert refused["after"] == refused["before"] and "lessons/01-welcome.md" in refused["after"]

    if session.export is None:
        pytest.skip(
            "no real AI-Shifu export: set MFLS_AI_SHIFU_EXPORTS or put shared/data/ai-shifu "
            "beside an ancestor of the checkout"
        )
    export = session.export
    original = export.read_bytes()
    folder = session.tmp / "unpacked"
    listed = course_files(folder)
    title = json.loads(original)["shifu"]["title"]

    # Every editor has one frame, those of the courses replaced are gone; a lesson
    # deleted takes its editor, frame and problems with it.
    assert steps["frames"] == {"frames": len(listed), "views": len(listed)}
    deleted = steps["deleted"]
    assert deleted["path"].endswith(".md")
    assert (deleted["frames"], deleted["views"]) == (len(listed) - 1, len(listed) - 1)
    assert not [p for p in deleted["problems"] if p.startswith(f"{deleted['path']}:")]

    # Opened: the files mfls unpack makes of it; saved untouched: the export, byte for byte.
    assert steps["opened"] == {
        "message": f"Opened {title}: {len(listed)} files",
        "list": listed,
    }
    saved = steps["saved"]
    assert saved["suggested"] == export.name and saved["message"] == f"Saved {export.name}"
    assert Path(saved["path"]).read_bytes() == original

    # One lesson edited: what mfls pack makes of the folder with the same edit.
    edited = steps["edited"]
    assert edited["text"].endswith("\nEdited in the playground.\n")
    same = session.tmp / "edited-folder"
    shutil.copytree(folder, same)
    (same / edited["lesson"]).write_bytes(edited["text"].encode("utf-8"))
    packed = mfls("pack", str(same), str(session.tmp / "packed.json"))
    assert packed.returncode == 0, packed.stderr
    assert Path(edited["path"]).read_bytes() == (session.tmp / "packed.json").read_bytes()
    assert Path(edited["path"]).read_bytes() != original

    # The folder mfls unpack made, opened from disk and saved: the export again.
    assert steps["folder"]["message"] == f"Opened unpacked: {len(listed)} files"
    assert steps["folder"]["list"] == listed
    assert steps["folder"]["saved"]["suggested"] == "unpacked.json"
    assert Path(steps["folder"]["saved"]["path"]).read_bytes() == original

    # The export dropped and a broken one right after: the course is the export's, saved
    # under its name (the name of the open in flight was one for both before).
    raced = steps["raced"]
    assert raced["shown"] == [
        f"Not opened: {reason}. The course on the page is unchanged.",
        f"Opened {title}: {len(listed)} files",
    ]
    assert raced["list"] == listed
    assert raced["saved"]["suggested"] == export.name
    assert Path(raced["saved"]["path"]).read_bytes() == original


def test_the_page_survives_deep_exports_and_restarts_mfls(session: Session) -> None:
    steps = session.steps["survives"]
    assert not session.data["errors"], (session.data["errors"], session.data["console"])

    # Each deep export is refused with mfls unpack's own words (checked before any
    # recursive read), and mfls is still up.
    for depth, shown in zip(DEEP, steps["deep"], strict=True):
        cli = mfls("unpack", str(session.tmp / shown["name"]), str(session.tmp / "never"))
        assert cli.returncode == 2
        reason = cli.stderr.strip().removeprefix("mfls unpack: ")
        assert f"nest {depth + 1} levels deep" in reason
        assert shown == {
            "name": f"deep-{depth}.json",
            "message": f"Not opened: {reason}. The course on the page is unchanged.",
            "state": "ready",
        }

    # Then a real export opens and typing in it brings its problems.
    if session.export is not None:
        title = json.loads(session.export.read_bytes())["shifu"]["title"]
        assert steps["opened"].startswith(f"Opened {title}: ")
    typed = steps["typed"]
    assert "unbound-reference" in typed["problem"] and typed["state"] == "ready"

    # Python failed fatally: the page says so, never "ready", and offers a restart;
    # a request meanwhile is answered at once.
    dead = steps["dead"]
    assert dead["state"] == "failed" and dead["status"].startswith("mfls stopped: ")
    assert dead["message"] == (
        "mfls stopped working in this page (its Python failed). Your course is kept: "
        "restart mfls (the button beside the status) to go on checking it."
    )
    assert dead["button"] == "Restart mfls"
    assert dead["saveRefused"].startswith("No export saved: ")

    # Restarted: the same course (files, edited text), its problems, the same export
    # saved, and typing works.
    restarted = steps["restarted"]
    assert restarted["status"].startswith("mfls 0.1.0, Python 3.14")
    assert restarted["list"] == typed["list"] and restarted["text"] == typed["text"]
    assert typed["problem"] in restarted["problems"]
    assert restarted["saved"]["suggested"] == typed["saved"]["suggested"]
    saved_before, saved_after = typed["saved"]["path"], restarted["saved"]["path"]
    assert Path(saved_after).read_bytes() == Path(saved_before).read_bytes()
    assert "a key after the restart" in restarted["typed"]
    assert restarted["state"] == "ready"

    # In Chinese too.
    zh = session.steps["chinese"]["dead"]
    assert zh["state"] == "failed" and zh["status"].startswith("mfls 已停止：")
    assert zh["button"] == "重新启动 mfls" and _chinese(zh["message"])


def page_readings(lines: list[str], version: str) -> list[dict[str, Any]]:
    """The learner page's reading of each line, by the real remark-flow in Node
    (tests/hosts/remark_flow/page.mjs, as the learner page model's tests run it)."""
    require_path(REMARK_FLOW / "node_modules", "tests/hosts/remark_flow's npm packages (npm ci)")
    done = subprocess.run(
        [require_executable("node"), str(REMARK_FLOW / "page.mjs"), version],
        input=json.dumps(lines),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    readings: list[dict[str, Any]] = json.loads(done.stdout)
    return readings


def test_the_learner_view(session: Session) -> None:
    steps = session.steps["learner"]
    assert not session.data["errors"], session.data["errors"]

    # remark-flow is fetched when the pane opens, not before, and once.
    assert (steps["fetchedBefore"], steps["fetchedAfter"], steps["fetchedAtEnd"]) == (0, 1, 1)
    assert steps["versions"] == [
        ["remark-flow-0.1.6", "remark-flow 0.1.6"],
        ["remark-flow-1.0.0-alpha.7", "remark-flow 1.0.0-alpha.7"],
    ]
    assert steps["chosen"] == "remark-flow-0.1.6"  # what markdown-flow-ui 0.1.107 bundles

    # Each interaction drawn as the real package reads its line, in both versions.
    lines = steps["text"].split("\n")
    assert steps["text"] == f"# New lesson\n\n{LEARNER_LESSON}"
    numbers = [n for n, line in enumerate(lines, 1) if line.startswith("?[")]
    for version, shown in steps["shown"].items():
        readings = page_readings([lines[n - 1] for n in numbers], version)
        cards = [card for card in shown if card["kind"].startswith("learner-interaction")]
        assert [card["line"] for card in cards] == numbers
        for card, reading in zip(cards, readings, strict=True):
            elements = reading["elements"]
            assert card["buttons"] == [b for e in elements for b in e.get("buttonTexts", [])]
            assert card["input"] == next(
                (e["placeholder"] for e in elements if "placeholder" in e), None
            )
            assert card["raw"] == (None if elements else reading["text"])
        # The prompt between interactions: what the AI writes from, with its lines.
        assert [c["text"] for c in shown if c["kind"] == "learner-ai"] == [
            "AI writes from lines 1–3 # New lesson"
        ]

    readable = {
        "line": numbers[0],
        "kind": "learner-interaction",
        "buttons": ["Beginner", "Expert"],
        "input": None,
        "caption": "saved as level",
        "warning": None,
        "raw": None,
        "problems": [],
        "text": None,
    }
    old, new = steps["shown"]["remark-flow-0.1.6"], steps["shown"]["remark-flow-1.0.0-alpha.7"]
    assert old[1] == new[1] == readable
    # The question-text key: 0.1.6 makes buttons that store nothing, the marker in the
    # first label; 1.0.0-alpha.7 gives the raw text. Both link to the problem.
    problem = old[2]["problems"]
    assert len(problem) == 1 and problem[0].startswith("page-unreadable-binding: ")
    # The link gives the message's first sentence (the whole message is its title).
    assert problem[0].endswith("”.") and problem[0].count(". ") == 0
    assert old[2] == {
        **readable,
        "line": numbers[1],
        "kind": "learner-interaction unread",
        "buttons": ["%{{What would you like to learn?}} Python", "JavaScript"],
        "caption": None,
        "warning": "The page reads no variable here: the answer is stored nowhere",
        "problems": problem,
    }
    assert new[2] == {
        **readable,
        "line": numbers[1],
        "kind": "learner-interaction unread",
        "buttons": [],
        "caption": None,
        "warning": "The page cannot read this interaction: the learner gets the raw text",
        "raw": "?[%{{What would you like to learn?}} Python | JavaScript]",
        "problems": problem,
    }
    assert old[3]["caption"] == "choose several · saved as topics"
    assert new[3]["caption"] == "saved as topics"  # no multiple choice in 1.0.0-alpha.7
    assert old[4]["input"] == new[4]["input"] == "Your name"

    # mfcourse.toml shown, the pane keeps the lesson; the problem clicked there: the lesson
    # in the editor, the cursor on the key.
    assert steps["keptLesson"] == "lessons/07-learner.md"
    assert steps["clicked"]["path"] == "lessons/07-learner.md"
    assert steps["clicked"]["line"] == numbers[1] and steps["clicked"]["focused"]
    assert "What would you like to learn?" in steps["clicked"]["at"]
    assert steps["closed"] == {"pane": True, "map": "block"}

    # In Chinese: the pane's words, and a warning on the example's first interaction.
    zh = session.steps["chinese"]["learner"]
    assert zh["heading"] == "学员视图" and _chinese(zh["note"])
    assert all(_chinese(c["text"]) for c in zh["shown"] if c["kind"] == "learner-ai")
    assert any(c["warning"] and _chinese(c["warning"]) for c in zh["shown"])
    links = [link for c in zh["shown"] for link in c["problems"]]
    assert links and all(link.endswith("。") and link.count("。") == 1 for link in links)


def test_the_course_shared_by_link(session: Session) -> None:
    share = session.steps["share"]
    assert not session.data["errors"], session.data["errors"]
    lesson = LESSON_2
    text = "# Shared\n\nRead {{ A key only this link knows }} here — 共享。\n"
    assert re.fullmatch(
        r"This course is too large to share in a link \((\d+) characters, at most 32000\): "
        r"download it as a zip instead\.",
        share["tooLong"],
    )
    assert share["link"].startswith(f"{session.url}#course=")
    assert re.fullmatch(r"[A-Za-z0-9_-]+", share["link"].split("#course=", 1)[1])
    assert share["url"] == share["link"]  # the address carries it too
    assert share["message"] in (
        "Link copied: it holds every file of the course, in the address after #, and is sent "
        "nowhere.",
        "The link to this course (copy it from here):",
    )
    # Every file of the course, as the sender had it, in the link.
    sent = share["sent"]
    course = example_course()
    assert sorted(sent) == sorted(course) and sent[lesson] == text
    opened = share["opened"]
    assert opened["message"] == "Showing the shared course: 4 files."
    assert opened["list"] == ["mfcourse.toml", LESSON_1, LESSON_2, LESSON_3]
    assert opened["received"] == sent
    assert opened["current"] == LESSON_1
    assert opened["problems"] == checked(sent, session.tmp / "shared")
    unbound = [row for row in opened["problems"] if "unbound-reference" in row]
    assert any("A key only this link knows" in row for row in unbound)

    # A link of one lesson, as the page shared before, still opens (with the example's
    # mfcourse.toml).
    assert share["oldLink"] == {
        "message": f"Showing the shared lesson {lesson}.",
        "list": ["mfcourse.toml", lesson],
        "text": text,
    }

    # A course link with paths mfls's one rule refuses: left out and named, pasted or
    # opened in a new tab.
    left_out = (
        "Left out of the course (outside it, in mfls's own .mfls folder, or not a portable "
        "file name): .mfls/rename-records.jsonl, a\\..\\..\\x.md."
    )
    assert share["leftOut"] == {
        "pasted": left_out,
        "pastedList": ["mfcourse.toml", "lessons/shared-01.md"],
        "opened": left_out,
        "openedList": ["mfcourse.toml", "lessons/shared-01.md"],
    }

    # A damaged fragment: a message, and the example course with its problems.
    damaged = share["damaged"]
    bad_link = (
        "The link's course could not be read (too long or damaged): here is the example course."
    )
    assert damaged["message"] == share["tooLongOpened"]["message"] == bad_link
    assert damaged["list"] == ["mfcourse.toml", LESSON_1, LESSON_2, LESSON_3]
    assert damaged["problems"] == checked(course, session.tmp / "example")
    assert share["otherFragment"] == {"list": damaged["list"], "current": LESSON_3}


def test_the_second_visit_from_the_cache(session: Session) -> None:
    """The page's first visit fetched the runtime; the link opened in another tab of the same
    browser (its second visit) read Pyodide, the wheels and a snapshot of Python with mfls
    imported from the cache: the site was asked
    for pyodide.asm.wasm once per browser context (the first, and the Chinese one), never by
    the second visit or the restarted worker."""
    steps = session.steps
    assert not session.data["errors"], session.data["errors"]
    assert steps["problems"]["cached"] == []
    # Python itself came from the snapshot the first visit made (mfls imported and run).
    assert steps["share"]["opened"]["snapshot"] is True, steps["share"]["opened"]["snapshotProblem"]
    # The snapshot was made before any course: nothing of the first visit's course (the
    # example's lessons, a key edited in) is in it, so none reaches a second visit.
    assert steps["share"]["snapshotHolds"] == ["mfls.lsp.playground"]
    print(f"second visit to the shared course's problems: {steps['share']['opened']['seconds']} s")
    assert sorted(steps["share"]["opened"]["cached"]) == [
        "pyodide/pyodide-lock.json",
        "pyodide/pyodide.asm.wasm",
        "pyodide/python_stdlib.zip",
        "wheels/site-packages.zip",
    ]
    asked = [path for path in session.site_asked if path.endswith("/pyodide/pyodide.asm.wasm")]
    assert len(asked) == 2, asked
    # The manifest, which names the build the cache belongs to, is asked every time.
    assert len([p for p in session.site_asked if p.endswith("/wheels/manifest.json")]) >= 4


def test_the_host_and_target_picker(session: Session) -> None:
    tools = session.steps["courseTools"]
    print(f"the picker, zip and Markdown steps: {tools['seconds']:.1f} s")
    assert not session.data["errors"], session.data["errors"]
    hosts, targets = tools["choices"]
    assert [value for value, _ in hosts] == ["generic", "ai-shifu", "playground"]
    assert [value for value, _ in targets] == [
        "",
        "current",
        "markdown-flow-0.4",
        "markdown-flow-0.3",
        "markdown-flow-0.3.4",
    ]
    assert targets[0][1] == "host's default"
    original = tools["original"]
    assert original == example_course()["mfcourse.toml"]
    shared = {**session.steps["share"]["sent"]}
    # Each pick rewrites only its value: the comment and every other line stay.
    generic = original.replace('host = "ai-shifu"', 'host = "generic"')
    assert tools["generic"]["toml"] == generic
    assert tools["generic"]["problems"] == checked(
        {**shared, "mfcourse.toml": generic}, session.tmp / "generic"
    )
    old = generic.replace('target = "current"', 'target = "markdown-flow-0.3"')
    assert tools["old"]["toml"] == old
    old_course = {**shared, "mfcourse.toml": old}
    assert tools["old"]["problems"] == checked(old_course, session.tmp / "old")
    assert "runtime-binding-ignored" in " ".join(tools["old"]["problems"])
    # The picker shows the file: as it came, after the host typed by hand, after the file
    # was put back.
    assert tools["picked"] == [
        {"host": "ai-shifu", "target": "current"},
        {"host": "playground", "target": "markdown-flow-0.3"},
        {"host": "ai-shifu", "target": "current"},
    ]
    # The host's default: the target line removed.
    assert tools["noTarget"] == {
        "toml": old.replace('host = "generic"', 'host = "playground"').replace(
            'target = "markdown-flow-0.3"\n', ""
        ),
        "picked": {"host": "playground", "target": ""},
    }


def test_the_course_as_zip_and_as_markdown(session: Session) -> None:
    tools = session.steps["courseTools"]
    assert not session.data["errors"], session.data["errors"]
    zipped = tools["zip"]
    assert zipped["suggested"] == "Playground.zip"  # mfcourse.toml's name
    assert zipped["message"] == "Saved Playground.zip"
    with zipfile.ZipFile(zipped["path"]) as archive:
        assert archive.testzip() is None
        inside = {name: archive.read(name).decode("utf-8") for name in archive.namelist()}
    assert inside == zipped["files"]
    assert sorted(inside) == [LESSON_1, LESSON_2, LESSON_3, "mfcourse.toml"]

    markdown = tools["markdown"]
    assert markdown["message"] == "Copied 4 files and the mfls version as Markdown."
    assert markdown["version"].startswith("mfls 0.1.0, Python 3.14")
    copied = markdown["clipboard"]
    assert copied.startswith(f"mfls playground: {markdown['version']}\n")
    blocks = re.findall(r"^`([^`]+)`\n\n(`{3,})(\w*)\n(.*?)\n\2$", copied, re.M | re.S)
    # Each file's text as it is (a last line without its line end gets one in Markdown).
    files = {
        path: text if text.endswith("\n") else f"{text}\n" for path, text in zipped["files"].items()
    }
    assert {path: body + "\n" for path, _, _, body in blocks} == files
    assert [language for _, _, language, _ in blocks] == ["toml", *["markdown"] * 3]


def test_the_content_security_policy(session: Session) -> None:
    csp = session.steps["csp"]
    policy = [part.strip() for part in csp["policy"].split(";")]
    assert "default-src 'self'" in policy
    # Connections: the page's origin, and this machine's WebSockets (`?ws=`, mfls serve --ws).
    assert "connect-src 'self' ws://127.0.0.1:* ws://localhost:*" in policy
    assert "worker-src 'self'" in policy
    # Scripts: the page's own files, WebAssembly, and the course map's one inline script.
    script = next(part for part in policy if part.startswith("script-src ")).split()[1:]
    assert script[:2] == ["'self'", "'wasm-unsafe-eval'"] and len(script) == 3
    assert script[2].startswith("'sha256-")
    page = (SITE / "index.html").read_text(encoding="utf-8")
    assert not re.search(r"<script(?![^>]*\ssrc=)[^>]*>", page), "an inline script in the page"

    # Everything the page did (the whole session) ran without a violation ...
    assert csp["violations"] == [] and csp["later"] == []
    assert session.steps["chinese"]["violations"] == []
    # ... but the planted request to another origin, which was blocked and never arrived.
    assert csp["planted"].startswith("refused: ")
    foreign = csp["after"][0].split(" ", 1)[1]
    assert csp["after"] == [f"connect-src {foreign}"] and foreign.endswith("/planted")
    assert session.foreign_asked == []
    refusals = [line for line in session.data["console"] if "Content Security Policy" in line]
    assert refusals and all(f"{foreign}" in line for line in refusals), refusals


def _chinese(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def test_the_page_in_simplified_chinese(session: Session) -> None:
    zh = session.steps["chinese"]
    assert not session.data["errors"], session.data["errors"]
    assert zh["languages"][0] == "zh-CN" and zh["lang"] == "zh-CN"
    assert zh["title"] == "mfls 在线体验"
    assert zh["status"].startswith("mfls 0.1.0, Python 3.14") and zh["status"].endswith(" 秒启动")

    # Every string of the page, in Chinese, and none the same as the English page's.
    english = session.steps["strings"]
    assert len(zh["strings"]) == len(english) > 15
    for chinese_row, english_row in zip(zh["strings"], english, strict=True):
        for chinese_text, english_text in zip(chinese_row, english_row, strict=True):
            assert (chinese_text is None) == (english_text is None)
            if chinese_text is not None:
                assert _chinese(chinese_text) and chinese_text != english_text
    drop_hint = "拖入 AI-Shifu 导出文件（.json）即可作为课程打开"
    assert ["课程", None, None] in zh["strings"]
    assert ["打开导出文件…", None, drop_hint] in zh["strings"]

    # mfls's diagnostics in Chinese, as mfls check --locale zh-CN words them.
    expected = checked(example_course(), session.tmp / "zh", locale="zh-CN")
    assert zh["problems"] == expected
    assert all(_chinese(line) for line in expected)
