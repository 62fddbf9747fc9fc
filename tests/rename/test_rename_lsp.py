"""Rename, prepareRename and code actions end to end, against `python -m mfls`."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as t
from pygls.exceptions import JsonRpcException
from rename_support import Editor, caps_of, editor, uri, wait_until, write_files

from mfls.features import code_actions as ca

TOML = 'host = "ai-shifu"\ntarget = "current"\nsystem-keys = ["course_title"]\n'
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


@pytest.fixture
def folders(tmp_path: Path) -> tuple[Path, Path]:
    course = tmp_path / "course"
    other = tmp_path / "other"
    write_files(course, {"mfcourse.toml": TOML, "l1.md": L1, "l2.md": L2, "l3.md": L3})
    write_files(other, {"o.md": OTHER})
    return course, other


def _at(text: str, needle: str, into: int = 4) -> int:
    return text.index(needle) + into


async def _prepare(ed: Editor, doc_uri: str, offset: int) -> t.PrepareRenamePlaceholder:
    return await ed.client.text_document_prepare_rename_async(
        t.PrepareRenameParams(
            text_document=t.TextDocumentIdentifier(uri=doc_uri),
            position=ed.position(doc_uri, offset),
        )
    )


async def _rename(ed: Editor, doc_uri: str, offset: int, name: str) -> t.WorkspaceEdit:
    return await ed.client.text_document_rename_async(
        t.RenameParams(
            text_document=t.TextDocumentIdentifier(uri=doc_uri),
            position=ed.position(doc_uri, offset),
            new_name=name,
        )
    )


async def _actions(
    ed: Editor,
    doc_uri: str,
    offset: int,
    only: list[str] | None = None,
    diagnostics: list[t.Diagnostic] | None = None,
) -> list[t.CodeAction]:
    position = ed.position(doc_uri, offset)
    found = await ed.client.text_document_code_action_async(
        t.CodeActionParams(
            text_document=t.TextDocumentIdentifier(uri=doc_uri),
            range=t.Range(start=position, end=position),
            context=t.CodeActionContext(diagnostics=diagnostics or [], only=only),
        )
    )
    return [a for a in found or [] if isinstance(a, t.CodeAction)]


def _one(actions: list[t.CodeAction], title_start: str) -> t.CodeAction:
    found = [a for a in actions if a.title.startswith(title_start)]
    assert len(found) == 1, [a.title for a in actions]
    return found[0]


@pytest.mark.parametrize(
    ("needle", "key"),
    [
        ("{{ topic }} Python", "topic"),  # binding
        ("{{topic}} and", "topic"),  # reference
        ("%{{goal}}", "goal"),  # legacy binding
        ("`{{ topic }}`", "topic"),  # inline literal context
    ],
)
async def test_prepare_rename_on_each_kind_of_occurrence(
    folders: tuple[Path, Path], needle: str, key: str
) -> None:
    course, other = folders
    async with editor(caps_of("visual-studio-code"), course, other) as ed:
        doc = ed.open(course / "l1.md")
        answer = await _prepare(ed, doc, _at(L1, needle))
        assert answer.placeholder == key
        start = L1.index(key, L1.index(needle))
        assert answer.range == t.Range(
            start=ed.position(doc, start), end=ed.position(doc, start + len(key))
        )
        # UTF-16 columns: the emoji before the reference count twice.
        if needle.startswith("{{topic}}"):
            assert answer.range.start.character == L1.splitlines()[6].index("topic") + 2


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
async def test_prepare_rename_refusals(
    folders: tuple[Path, Path], needle: str, message: str
) -> None:
    course, other = folders
    async with editor(caps_of("visual-studio-code"), course, other) as ed:
        doc = ed.open(course / "l1.md")
        with pytest.raises(JsonRpcException) as refusal:
            await _prepare(ed, doc, _at(L1, needle, 3))
        assert message in str(refusal.value)


async def test_rename_across_open_and_closed_documents_with_annotation(
    folders: tuple[Path, Path],
) -> None:
    course, other = folders
    async with editor(caps_of("visual-studio-code"), course, other) as ed:
        doc = ed.open(course / "l1.md", version=3)
        edit = await _rename(ed, doc, _at(L1, "{{topic}}"), " 🚀 Favourite topic? ")
        assert edit.document_changes is not None
        versions = {c.text_document.uri: c.text_document.version for c in edit.document_changes}
        assert versions == {doc: 3, uri(course / "l2.md"): None}
        for change in edit.document_changes:
            assert all(isinstance(e, t.AnnotatedTextEdit) for e in change.edits)
            assert {e.annotation_id for e in change.edits} == {"mfls.storedAnswers"}
        assert edit.change_annotations is not None
        note = edit.change_annotations["mfls.storedAnswers"]
        assert not note.needs_confirmation, "VS Code would open its preview, changes unticked"
        assert "will not follow" in (note.description or "")
        texts = ed.applied(edit)
        new = "🚀 Favourite topic?"
        assert texts[doc] == (
            L1.replace("{{ topic }} Python", f"{{{{ {new} }}}} Python").replace(
                "{{topic}} and `{{ topic }}`", f"{{{{ {new} }}}} and `{{{{ {new} }}}}`"
            )
        )
        assert texts[uri(course / "l2.md")] == L2.replace("{{ topic }}", f"{{{{ {new} }}}}")
        assert uri(other / "o.md") not in texts


@pytest.mark.parametrize(
    ("client", "needle"),
    [
        ("visual-studio-code", "{{ topic }} Python"),  # binding
        ("neovim@v0.11", "{{topic}} and"),  # reference after emoji, UTF-8 columns
        ("emacs", "`{{ topic }}`"),  # inline literal context, UTF-32 columns
    ],
)
async def test_rename_from_each_kind_of_occurrence(
    folders: tuple[Path, Path], client: str, needle: str
) -> None:
    course, other = folders
    async with editor(caps_of(client), course, other) as ed:
        doc = ed.open(course / "l1.md")
        edit = await _rename(ed, doc, _at(L1, needle), "subject")
        texts = ed.applied(edit)
        assert texts[doc] == (
            L1.replace("{{ topic }} Python", "{{ subject }} Python").replace(
                "{{topic}} and `{{ topic }}`", "{{ subject }} and `{{ subject }}`"
            )
        )
        assert texts[uri(course / "l2.md")] == L2.replace("{{ topic }}", "{{ subject }}")
        assert set(texts) == {doc, uri(course / "l2.md")}


async def test_rename_from_a_closed_document_keeps_the_legacy_percent(
    folders: tuple[Path, Path],
) -> None:
    course, other = folders
    async with editor(caps_of("neovim@v0.11"), course, other) as ed:
        closed = uri(course / "l2.md")
        edit = await _rename(ed, closed, _at(L2, "{{ goal }}"), "aim")
        # Without documentChanges support the edit comes as a plain `changes` map.
        assert edit.document_changes is None
        texts = ed.applied(edit)
        assert texts[uri(course / "l1.md")] == L1.replace("%{{goal}}", "%{{ aim }}")
        assert texts[closed] == L2.replace("{{ goal }}", "{{ aim }}")


async def test_the_other_course_renames_alone(folders: tuple[Path, Path]) -> None:
    course, other = folders
    async with editor(caps_of("visual-studio-code"), course, other) as ed:
        doc = ed.open(other / "o.md")
        edit = await _rename(ed, doc, _at(OTHER, "{{ topic }}"), "subject")
        assert ed.applied(edit) == {doc: OTHER.replace("topic", "subject")}


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "empty"),
        ("two\nlines", "line break"),
        ("bell\x07", "control character"),
        ("a}}b", "'}}'"),
        ("sys_topic", "reserves"),
        ("goal", "'goal' is already a key of this course, used at l1.md:5 (binding)"),
    ],
)
async def test_rename_refusals(folders: tuple[Path, Path], name: str, message: str) -> None:
    course, other = folders
    async with editor(caps_of("visual-studio-code"), course, other) as ed:
        doc = ed.open(course / "l1.md")
        with pytest.raises(JsonRpcException) as refusal:
            await _rename(ed, doc, _at(L1, "{{topic}}"), name)
        assert message in str(refusal.value)


async def test_quick_fixes(folders: tuple[Path, Path]) -> None:
    course, other = folders
    async with editor(caps_of("visual-studio-code"), course, other) as ed:
        l1 = ed.open(course / "l1.md")
        legacy = _one(await _actions(ed, l1, _at(L1, "%{{goal}}")), "Convert legacy binding")
        assert legacy.kind == t.CodeActionKind.QuickFix
        assert legacy.is_preferred
        assert ed.applied(legacy.edit) == {l1: L1.replace("%{{goal}}", "{{ goal }}")}
        pad = _one(await _actions(ed, l1, _at(L1, "{{topic}}")), "Pad marker to {{ topic }}")
        assert ed.applied(pad.edit) == {l1: L1.replace("{{topic}} and", "{{ topic }} and")}

        l2 = ed.open(course / "l2.md")
        near = _one(
            await _actions(ed, l2, _at(L2, "{{ What is your topic? }}")),
            "Replace with {{ What is your topic }}",
        )
        assert ed.applied(near.edit) == {l2: L2.replace("topic? }}", "topic }}")}

        unbound = _one(await _actions(ed, l2, _at(L2, "{{ pace }}")), "Ask for 'pace'")
        assert ed.applied(unbound.edit) == {
            l2: L2.replace("Then", "?[{{ pace }} Option A | Option B | ...Other]\n\nThen")
        }


async def test_unbound_fix_is_a_snippet_when_the_client_takes_snippets(
    folders: tuple[Path, Path],
) -> None:
    course, other = folders
    async with editor(caps_of("visual-studio-code", snippets=True), course, other) as ed:
        l2 = ed.open(course / "l2.md")
        at = L2.index("{{ pace }}")
        diagnostic = t.Diagnostic(
            range=t.Range(start=ed.position(l2, at), end=ed.position(l2, at + 10)),
            message="unbound",
            code="unbound-reference",
        )
        actions = await _actions(ed, l2, _at(L2, "{{ pace }}"), diagnostics=[diagnostic])
        unbound = _one(actions, "Ask for 'pace'")
        assert list(unbound.diagnostics or []) == [diagnostic]
        assert unbound.edit is not None and unbound.edit.document_changes is not None
        (edit,) = unbound.edit.document_changes[0].edits
        assert isinstance(edit, t.SnippetTextEdit)
        assert edit.snippet.value == (
            "?[{{ pace \\}\\} ${1:Option A} | ${2:Option B} | ...${3:Other}]\n\n"
        )


async def test_conflict_then_merge_action(folders: tuple[Path, Path]) -> None:
    course, other = folders
    async with editor(caps_of("visual-studio-code"), course, other) as ed:
        l1 = ed.open(course / "l1.md")
        with pytest.raises(JsonRpcException, match="Merge key 'topic' into 'goal'"):
            await _rename(ed, l1, _at(L1, "{{topic}}"), "goal")
        actions = await _actions(ed, l1, _at(L1, "{{topic}}"), only=["refactor"])
        merge = _one(actions, "Merge key 'topic' into 'goal'")
        assert merge.kind == ca.MERGE
        assert merge.edit is not None and merge.edit.change_annotations is not None
        assert not merge.edit.change_annotations["mfls.storedAnswers"].needs_confirmation
        texts = ed.applied(merge.edit)
        assert "?[{{ goal }} Python | Go]" in texts[l1]
        assert "Use {{ goal }} and {{ goal }}." in texts[uri(course / "l2.md")]


async def test_rename_warns_about_stored_answers_after_its_answer(
    folders: tuple[Path, Path],
) -> None:
    course, other = folders
    async with editor(caps_of("visual-studio-code"), course, other) as ed:
        order: list[str] = []
        protocol = ed.client.protocol
        handle = protocol.handle_message

        def spy(message: object) -> None:
            method = getattr(message, "method", None)
            order.append(method or ("answer" if hasattr(message, "result") else "other"))
            handle(message)

        protocol.handle_message = spy  # type: ignore[method-assign]  # a spy on arrivals
        doc = ed.open(course / "l2.md")
        edit = await _rename(ed, doc, _at(L2, "{{ topic }}"), "subject")
        assert edit.document_changes
        await wait_until(lambda: bool(ed.client.messages))
        (message,) = ed.client.messages
        assert message.type == t.MessageType.Warning
        first = message.message.split(". ")[0]
        assert first == "Stored answers stay under the old key 'topic'" and len(first) <= 80
        assert "'subject'" in message.message
        assert order.index("answer") < order.index(t.WINDOW_SHOW_MESSAGE)


async def test_refused_rename_sends_no_warning(folders: tuple[Path, Path]) -> None:
    course, other = folders
    async with editor(caps_of("visual-studio-code"), course, other) as ed:
        doc = ed.open(course / "l2.md")
        with pytest.raises(JsonRpcException):
            await _rename(ed, doc, _at(L2, "{{ topic }}"), "goal")
        await _rename(ed, doc, _at(L2, "{{ pace }}"), "speed")
        await wait_until(lambda: bool(ed.client.messages))
        assert [m.message.split("'")[1] for m in ed.client.messages] == ["pace"]


@pytest.mark.parametrize("client", ["neovim", "emacs"])
async def test_clients_without_annotation_support_get_plain_edits(
    folders: tuple[Path, Path], client: str
) -> None:
    course, other = folders
    async with editor(caps_of(client), course, other) as ed:
        doc = ed.open(course / "l2.md")
        edit = await _rename(ed, doc, _at(L2, "{{ topic }}"), "subject")
        assert edit.change_annotations is None
        changes = edit.document_changes or []
        edits = [e for c in changes for e in c.edits] or [
            e for es in (edit.changes or {}).values() for e in es
        ]
        assert edits and not any(isinstance(e, t.AnnotatedTextEdit) for e in edits)
        assert "subject" in ed.applied(edit)[doc]


async def test_source_actions_for_the_document_and_the_course(
    folders: tuple[Path, Path],
) -> None:
    course, other = folders
    async with editor(caps_of("visual-studio-code"), course, other) as ed:
        l1 = ed.open(course / "l1.md")
        actions = await _actions(ed, l1, 0, only=["source"])
        kinds = sorted(str(a.kind) for a in actions)
        assert kinds == sorted(
            [ca.CONVERT_LEGACY, ca.CONVERT_LEGACY_COURSE, ca.PAD_MARKERS, ca.PAD_MARKERS_COURSE]
        )
        by_kind = {str(a.kind): a for a in actions}
        convert = ed.applied(by_kind[ca.CONVERT_LEGACY].edit)
        assert convert == {l1: L1.replace("%{{goal}}", "{{ goal }}")}
        pad_course = ed.applied(by_kind[ca.PAD_MARKERS_COURSE].edit)
        assert pad_course == {
            l1: L1.replace("%{{goal}}", "%{{ goal }}").replace("{{topic}} and", "{{ topic }} and")
        }
        quick = await _actions(ed, l1, 0, only=["quickfix"])
        assert quick == []
