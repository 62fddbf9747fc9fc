"""Rename, prepareRename and code actions, in process: the edits applied as an editor
applies them, and the rename record written once they are applied. Moved from
tests/rename/test_rename_lsp.py and tests/rename/test_rename_records_lsp.py.

The course (`course/`) and another one (`other/`) with a key of the same text; `L1` has
CRLF line endings and emoji before a reference (UTF-16, UTF-8 and UTF-32 columns differ).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from mfls import __version__
from tests.kit.course import Fixture
from tests.kit.memory_client import CourseClient, vscode_capabilities

# `page = []`: the course targets no learner page, so these tests see mfls's own spelling
# of every marker (the page's is tests/handlers/test_handlers_page_bindings.py).
TOML = 'host = "ai-shifu"\ntarget = "current"\npage = []\nsystem-keys = ["course_title"]\n'
L1 = (
    "😀 Intro to {{ course_title }} for {{ sys_user_nickname }}\r\n"
    "\r\n"
    "?[{{ topic }} Python | Go]\r\n"
    "\r\n"
    "?[%{{goal}} Job | Fun]\r\n"
    "\r\n"
    "😀😀 Use {{topic}} and `{{ topic }}`, empty {{ }}.\r\n"
    "\r\n"
    "```\r\n"
    "{{ topic }}\r\n"
    "```\r\n"
)
L2 = "Use {{ topic }} and {{ goal }}.\n\nThen {{ pace }} and {{ What is your topic? }}.\n"
L3 = "?[{{ What is your topic }} A | B]\n"
OTHER = "?[{{ topic }} Same | Text]\n"
FILES = {
    "course/mfcourse.toml": TOML,
    "course/l1.md": L1,
    "course/l2.md": L2,
    "course/l3.md": L3,
    "other/o.md": OTHER,
}
QUICKFIX, MERGE = "quickfix", "refactor.rewrite.mfls.mergeKey"


def start(client: str = "visual-studio-code", **caps: bool) -> CourseClient:
    """The two courses, nothing opened. `snippets`: the client takes snippet edits."""
    capabilities = vscode_capabilities(client=client)
    if caps.get("snippets"):
        capabilities["workspace"]["workspaceEdit"]["snippetEditSupport"] = True
    fixture = Fixture(files=dict(FILES), closed=set(FILES))
    return CourseClient(fixture, capabilities=capabilities, folders=["course", "other"])


def at(course: CourseClient, path: str, needle: str, into: int = 4) -> dict[str, Any]:
    """`TextDocumentPositionParams` `into` code points into the first `needle`."""
    offset = course.text(path).index(needle) + into
    return {
        "textDocument": {"uri": course.uri(path)},
        "position": course.position_at(path, offset),
    }


def rename(course: CourseClient, path: str, needle: str, name: str) -> Any:
    return course.call("textDocument/rename", {**at(course, path, needle), "newName": name})


def refusal(course: CourseClient, method: str, params: dict[str, Any]) -> str:
    response = course.answer(method, params)
    assert "error" in response, response
    return str(response["error"]["message"])


def actions(
    course: CourseClient,
    path: str,
    needle: str | None,
    only: list[str] | None = None,
    diagnostics: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    where = at(course, path, needle) if needle else at(course, path, "", 0)
    context: dict[str, Any] = {"diagnostics": diagnostics or []}
    if only is not None:
        context["only"] = only
    point = where["position"]
    found = course.call(
        "textDocument/codeAction",
        {
            "textDocument": where["textDocument"],
            "range": {"start": point, "end": point},
            "context": context,
        },
    )
    return [a for a in found or [] if not isinstance(a.get("command"), str)]  # no Command


def one(found: list[dict[str, Any]], title_start: str) -> dict[str, Any]:
    matching = [a for a in found if a["title"].startswith(title_start)]
    assert len(matching) == 1, [a["title"] for a in found]
    return matching[0]


@pytest.mark.parametrize(
    ("needle", "key"),
    [
        ("{{ topic }} Python", "topic"),  # binding
        ("{{topic}} and", "topic"),  # reference
        ("%{{goal}}", "goal"),  # legacy binding
        ("`{{ topic }}`", "topic"),  # inline literal context
    ],
)
def test_prepare_rename_on_each_kind_of_occurrence(needle: str, key: str) -> None:
    course = start()
    course.open("course/l1.md")
    answer = course.call("textDocument/prepareRename", at(course, "course/l1.md", needle))
    start_ = L1.index(key, L1.index(needle))
    assert answer == {
        "range": {
            "start": course.position_at("course/l1.md", start_),
            "end": course.position_at("course/l1.md", start_ + len(key)),
        },
        "placeholder": key,
    }
    # UTF-16 columns: the emoji before the reference count twice.
    if needle.startswith("{{topic}}"):
        assert answer["range"]["start"]["character"] == L1.splitlines()[6].index("topic") + 2


@pytest.mark.parametrize(
    ("needle", "message"),
    [
        ("Intro", "There is no memory marker here"),
        ("{{ }}", "This marker is invalid (empty)"),
        ("{{ topic }}\r\n```", "code blocks"),
        ("{{ sys_user_nickname }}", "provided by the host (ai-shifu)"),
        ("{{ course_title }}", "system key listed in the course file"),
    ],
)
def test_prepare_rename_refusals(needle: str, message: str) -> None:
    course = start()
    course.open("course/l1.md")
    where = at(course, "course/l1.md", needle, 3)
    assert message in refusal(course, "textDocument/prepareRename", where)


def test_rename_across_open_and_closed_documents_with_annotation() -> None:
    course = start()
    course.open("course/l1.md", version=3)
    edit = rename(course, "course/l1.md", "{{topic}}", " 🚀 Favourite topic? ")
    versions = {
        course.path_of(c["textDocument"]["uri"]): c["textDocument"]["version"]
        for c in edit["documentChanges"]
    }
    assert versions == {"course/l1.md": 3, "course/l2.md": None}
    for change in edit["documentChanges"]:
        assert {e["annotationId"] for e in change["edits"]} == {"mfls.storedAnswers"}
    note = edit["changeAnnotations"]["mfls.storedAnswers"]
    assert not note["needsConfirmation"], "VS Code would open its preview, changes unticked"
    assert "will not follow" in note["description"]
    new = "🚀 Favourite topic?"
    assert course.applied(edit) == {
        "course/l1.md": L1.replace("{{ topic }} Python", f"{{{{ {new} }}}} Python").replace(
            "{{topic}} and `{{ topic }}`", f"{{{{ {new} }}}} and `{{{{ {new} }}}}`"
        ),
        "course/l2.md": L2.replace("{{ topic }}", f"{{{{ {new} }}}}"),
    }


@pytest.mark.parametrize(
    ("client", "needle"),
    [
        ("visual-studio-code", "{{ topic }} Python"),  # binding
        ("neovim@v0.11", "{{topic}} and"),  # reference after emoji, UTF-8 columns
        ("emacs", "`{{ topic }}`"),  # inline literal context, UTF-32 columns
    ],
)
def test_rename_from_each_kind_of_occurrence(client: str, needle: str) -> None:
    course = start(client)
    course.open("course/l1.md")
    edit = rename(course, "course/l1.md", needle, "subject")
    assert course.applied(edit) == {
        "course/l1.md": L1.replace("{{ topic }} Python", "{{ subject }} Python").replace(
            "{{topic}} and `{{ topic }}`", "{{ subject }} and `{{ subject }}`"
        ),
        "course/l2.md": L2.replace("{{ topic }}", "{{ subject }}"),
    }


def test_rename_from_a_closed_document_keeps_the_legacy_percent() -> None:
    course = start("neovim@v0.11")
    edit = rename(course, "course/l2.md", "{{ goal }}", "aim")
    # Without documentChanges support the edit comes as a plain `changes` map.
    assert "documentChanges" not in edit
    assert course.applied(edit) == {
        "course/l1.md": L1.replace("%{{goal}}", "%{{ aim }}"),
        "course/l2.md": L2.replace("{{ goal }}", "{{ aim }}"),
    }


def test_the_other_course_renames_alone() -> None:
    course = start()
    course.open("other/o.md")
    edit = rename(course, "other/o.md", "{{ topic }}", "subject")
    assert course.applied(edit) == {"other/o.md": OTHER.replace("topic", "subject")}


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "empty"),
        ("two\nlines", "line break"),
        ("bell\x07", "control character"),
        ("a}}b", "'}}'"),
        ("sys_topic", "reserves"),
        ("goal", "“goal” is already a key of this course, used at l1.md:5 (binding)"),
    ],
)
def test_rename_refusals(name: str, message: str) -> None:
    course = start()
    course.open("course/l1.md")
    params = {**at(course, "course/l1.md", "{{topic}}"), "newName": name}
    assert message in refusal(course, "textDocument/rename", params)


def test_quick_fixes() -> None:
    course = start()
    course.open("course/l1.md")
    legacy = one(actions(course, "course/l1.md", "%{{goal}}"), "Convert legacy binding")
    assert legacy["kind"] == QUICKFIX
    assert legacy["isPreferred"]
    assert course.applied(legacy["edit"]) == {"course/l1.md": L1.replace("%{{goal}}", "{{ goal }}")}
    pad = one(actions(course, "course/l1.md", "{{topic}}"), "Pad marker to {{ topic }}")
    assert course.applied(pad["edit"]) == {
        "course/l1.md": L1.replace("{{topic}} and", "{{ topic }} and")
    }

    course.open("course/l2.md")
    near = one(
        actions(course, "course/l2.md", "{{ What is your topic? }}"),
        "Replace with {{ What is your topic }}",
    )
    assert course.applied(near["edit"]) == {"course/l2.md": L2.replace("topic? }}", "topic }}")}

    unbound = one(actions(course, "course/l2.md", "{{ pace }}"), "Ask for “pace”")
    assert course.applied(unbound["edit"]) == {
        "course/l2.md": L2.replace("Then", "?[{{ pace }} Option A | Option B | ...Other]\n\nThen")
    }


def test_unbound_fix_is_a_snippet_when_the_client_takes_snippets() -> None:
    course = start(snippets=True)
    course.open("course/l2.md")
    offset = L2.index("{{ pace }}")
    diagnostic = {
        "range": {
            "start": course.position_at("course/l2.md", offset),
            "end": course.position_at("course/l2.md", offset + 10),
        },
        "message": "unbound",
        "code": "unbound-reference",
    }
    found = actions(course, "course/l2.md", "{{ pace }}", diagnostics=[diagnostic])
    unbound = one(found, "Ask for “pace”")
    assert unbound["diagnostics"] == [diagnostic]
    (edit,) = unbound["edit"]["documentChanges"][0]["edits"]
    assert edit["snippet"] == {
        "kind": "snippet",
        "value": "?[{{ pace \\}\\} ${1:Option A} | ${2:Option B} | ...${3:Other}]\n\n",
    }


def test_conflict_then_merge_action() -> None:
    course = start()
    course.open("course/l1.md")
    params = {**at(course, "course/l1.md", "{{topic}}"), "newName": "goal"}
    assert "Merge key “topic” into “goal”" in refusal(course, "textDocument/rename", params)
    found = actions(course, "course/l1.md", "{{topic}}", only=["refactor"])
    merge = one(found, "Merge key “topic” into “goal”")
    assert merge["kind"] == MERGE
    assert not merge["edit"]["changeAnnotations"]["mfls.storedAnswers"]["needsConfirmation"]
    texts = course.applied(merge["edit"])
    assert "?[{{ goal }} Python | Go]" in texts["course/l1.md"]
    assert "Use {{ goal }} and {{ goal }}." in texts["course/l2.md"]


def test_rename_warns_about_stored_answers_after_its_answer() -> None:
    course = start()
    course.open("course/l2.md")
    params = {**at(course, "course/l2.md", "{{ topic }}"), "newName": "subject"}
    sent = course.request("textDocument/rename", params)
    sent += course.settle()
    order = ["answer" if "result" in m else m.get("method") for m in sent]
    (message,) = [m["params"] for m in sent if m.get("method") == "window/showMessage"]
    assert message["type"] == 2  # warning
    first = message["message"].split(". ")[0]
    assert first == "Stored answers stay under the old key “topic”" and len(first) <= 80
    assert "“subject”" in message["message"]
    assert order.index("answer") < order.index("window/showMessage")


def test_refused_rename_sends_no_warning() -> None:
    course = start()
    course.open("course/l2.md")
    refused = {**at(course, "course/l2.md", "{{ topic }}"), "newName": "goal"}
    refusal(course, "textDocument/rename", refused)
    rename(course, "course/l2.md", "{{ pace }}", "speed")
    course.settle()
    shown = [m["params"] for m in course.received if m.get("method") == "window/showMessage"]
    assert [m["message"].split("“")[1].split("”")[0] for m in shown] == ["pace"]


@pytest.mark.parametrize("client", ["neovim", "emacs"])
def test_clients_without_annotation_support_get_plain_edits(client: str) -> None:
    course = start(client)
    course.open("course/l2.md")
    edit = rename(course, "course/l2.md", "{{ topic }}", "subject")
    assert "changeAnnotations" not in edit
    edits = [e for c in edit.get("documentChanges") or [] for e in c["edits"]] or [
        e for es in (edit.get("changes") or {}).values() for e in es
    ]
    assert edits and not any("annotationId" in e for e in edits)
    assert "subject" in course.applied(edit)["course/l2.md"]


def test_source_actions_for_the_document_and_the_course() -> None:
    course = start()
    course.open("course/l1.md")
    found = actions(course, "course/l1.md", None, only=["source"])
    by_kind = {a["kind"]: a for a in found}
    assert sorted(by_kind) == [
        "source.mfls.convertLegacyBindings",
        "source.mfls.convertLegacyBindings.course",
        "source.mfls.padMarkers",
        "source.mfls.padMarkers.course",
    ]
    convert = course.applied(by_kind["source.mfls.convertLegacyBindings"]["edit"])
    assert convert == {"course/l1.md": L1.replace("%{{goal}}", "{{ goal }}")}
    pad_course = course.applied(by_kind["source.mfls.padMarkers.course"]["edit"])
    assert pad_course == {
        "course/l1.md": L1.replace("%{{goal}}", "%{{ goal }}").replace(
            "{{topic}} and", "{{ topic }} and"
        )
    }
    assert actions(course, "course/l1.md", None, only=["quickfix"]) == []


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_the_record_is_written_once_the_client_applied_the_edit_everywhere(
    tmp_path: Path,
) -> None:
    """Moved from tests/rename/test_rename_records_lsp.py."""
    course = CourseClient(
        tmp_path,
        """
        //- mfcourse.toml
        name = "Editor course"
        //- l1.md
        ?[{{ $0topic }} Python | Go]

        You chose {{ topic }}.
        //- lessons/l2.md closed
        More on {{ topic }}.
        """,
        on_disk=True,
    )
    l1, l2 = course.text("l1.md"), course.text("lessons/l2.md")
    location = course.root / ".mfls" / "renames.jsonl"
    edit = course.call("textDocument/rename", {**course.at(), "newName": " subject "})
    texts = course.applied(edit)
    assert set(texts) == {"l1.md", "lessons/l2.md"}
    course.settle()
    assert not location.exists(), "a proposed edit is not a rename yet"

    # The editor applies the edit: the open buffer changes, the closed file is saved.
    course.notify(
        "textDocument/didChange",
        {
            "textDocument": {"uri": course.uri("l1.md"), "version": 2},
            "contentChanges": [{"text": texts["l1.md"]}],
        },
    )
    course.settle()
    assert not location.exists(), "one document of two is not the whole rename"
    (course.root / "lessons/l2.md").write_text(texts["lessons/l2.md"], "utf-8")
    changed = [{"uri": course.uri("lessons/l2.md"), "type": 2}]
    course.notify("workspace/didChangeWatchedFiles", {"changes": changed})
    course.settle()
    assert location.exists()
    course.notify("textDocument/didSave", {"textDocument": {"uri": course.uri("l1.md")}})
    course.settle()
    lines = location.read_text("utf-8").splitlines()
    assert len(lines) == 1, "one rename, one record"
    record = json.loads(lines[0])
    assert record["schema"] == "mfls-rename-record" and record["version"] == 1
    assert record["action"] == "rename" and record["applied"] == "observed"
    assert (record["old_key"], record["new_key"]) == ("topic", "subject")
    assert record["course"] == {"root": str(course.root), "name": "Editor course"}
    assert record["tool"] == {"name": "mfls server", "version": __version__}
    assert str(record["time"]).endswith("Z") and len(str(record["id"])) == 36
    assert sorted(record["files"], key=lambda f: f["path"]) == [
        {"path": "l1.md", "sha256_before": sha(l1), "sha256_after": sha(texts["l1.md"])},
        {
            "path": "lessons/l2.md",
            "sha256_before": sha(l2),
            "sha256_after": sha(texts["lessons/l2.md"]),
        },
    ]


def test_a_chinese_client_gets_the_refusal_in_chinese() -> None:
    fixture = Fixture(files=dict(FILES), closed=set(FILES))
    course = CourseClient(
        fixture,
        capabilities=vscode_capabilities(client="visual-studio-code"),
        folders=["course", "other"],
        locale="zh-CN",
    )
    course.open("course/l1.md")
    where = at(course, "course/l1.md", "{{ sys_user_nickname }}", 3)
    assert refusal(course, "textDocument/prepareRename", where) == (
        "“sys_user_nickname”由平台（ai-shifu）提供：它的名称不由课程决定。"
    )
    params = {**at(course, "course/l1.md", "{{ topic }} Python"), "newName": "a }} b"}
    assert refusal(course, "textDocument/rename", params).startswith("新名称包含 '}}'")
