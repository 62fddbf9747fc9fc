"""Courses end to end: multi-root isolation, disk changes, course files, folders."""

from __future__ import annotations

from pathlib import Path

from e2e_session import Session, capabilities, session, uri_of, wait_until, write_files
from lsprotocol import types as t


def position_of(text: str, needle: str, line: int) -> t.Position:
    return t.Position(line=line, character=text.splitlines()[line].index(needle) + 3)


async def codes(s: Session, uri: str) -> list[str]:
    report = await s.pull(uri)
    return sorted(str(d.code) for d in report.items)


async def test_two_courses_with_the_same_key_share_nothing(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    write_files(
        a,
        {
            "mfcourse.toml": 'name = "Course A"\n',
            "01.md": "?[{{ your name }} ...type it]\n\n?[{{ only in a }} X | Y]\n",
            "02.md": "Hello {{ your name }}.\n",
        },
    )
    lesson_b = "Hello {{ your name }}.\n"
    write_files(b, {"mfcourse.toml": 'name = "Course B"\n', "01.md": lesson_b})
    async with session(capabilities("neovim@v0.11"), [a, b]) as s:
        await s.indexed()
        in_a = s.open(a / "02.md")
        in_b = s.open(b / "01.md")
        assert await codes(s, in_a) == []
        assert await codes(s, in_b) == ["unbound-reference"]

        at_key = position_of(lesson_b, "{{", 0)
        doc_b = t.TextDocumentIdentifier(uri=in_b)
        definition = await s.client.text_document_definition_async(
            t.DefinitionParams(text_document=doc_b, position=at_key)
        )
        assert not definition
        references = await s.client.text_document_references_async(
            t.ReferenceParams(
                text_document=doc_b,
                position=at_key,
                context=t.ReferenceContext(include_declaration=True),
            )
        )
        assert [r.uri for r in references or []] == [in_b]

        s.change(
            in_b,
            [
                t.TextDocumentContentChangePartial(
                    range=t.Range(
                        start=t.Position(line=1, character=0), end=t.Position(line=1, character=0)
                    ),
                    text="{{",
                )
            ],
        )
        completion = await s.client.text_document_completion_async(
            t.CompletionParams(text_document=doc_b, position=t.Position(line=1, character=2))
        )
        labels = [item.label for item in completion.items] if completion else []
        assert "your name" in labels
        assert "only in a" not in labels

        symbols = await s.client.workspace_symbol_async(t.WorkspaceSymbolParams(query="your"))
        containers = sorted(
            (symbol.container_name or "") for symbol in symbols or [] if symbol.name == "your name"
        )
        assert containers == ["Course A", "Course B"]


async def test_closed_files_edited_created_and_deleted_on_disk(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "01-ask.md": "?[{{ colour }} Red | Blue]\n",
            "02-use.md": "Paint it {{ colour }}, then {{ fresh }}.\n",
        },
    )
    async with session(capabilities("neovim@v0.11"), [tmp_path]) as s:
        await s.indexed()
        assert not s.registrations, "neovim 0.11 has no dynamic registration for file watching"
        use = s.open(tmp_path / "02-use.md")
        assert await codes(s, use) == ["unbound-reference"]

        def notify(path: Path, change: t.FileChangeType) -> None:
            s.client.workspace_did_change_watched_files(
                t.DidChangeWatchedFilesParams(changes=[t.FileEvent(uri=uri_of(path), type=change)])
            )

        # A closed lesson edited on disk: its binding goes away.
        (tmp_path / "01-ask.md").write_text("No question here any more.\n")
        notify(tmp_path / "01-ask.md", t.FileChangeType.Changed)
        await s.indexed(2)
        assert await codes(s, use) == ["unbound-reference", "unbound-reference"]

        # A new lesson binding both keys.
        (tmp_path / "03-new.md").write_text("?[{{ colour }} A | B]\n\n?[{{ fresh }} C | D]\n")
        notify(tmp_path / "03-new.md", t.FileChangeType.Created)
        await s.indexed(3)
        assert await codes(s, use) == ["read-before-asked", "read-before-asked"]

        # ... deleted again.
        (tmp_path / "03-new.md").unlink()
        notify(tmp_path / "03-new.md", t.FileChangeType.Deleted)
        await s.indexed(4)
        assert await codes(s, use) == ["unbound-reference", "unbound-reference"]


async def test_an_open_buffer_wins_over_the_disk_copy(tmp_path: Path) -> None:
    write_files(tmp_path, {"01.md": "?[{{ a }} X | Y]\n", "02.md": "Use {{ a }}.\n"})
    async with session(capabilities("neovim@v0.11"), [tmp_path]) as s:
        await s.indexed()
        ask = s.open(tmp_path / "01.md", "No binding in the buffer.\n")
        use = s.open(tmp_path / "02.md")
        assert await codes(s, use) == ["unbound-reference"]
        s.close(ask)
        assert await codes(s, use) == []


async def test_a_malformed_course_file_uses_defaults_and_says_so(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {
            "mfcourse.toml": 'name = "Broken\nlessons = [\n',
            "lesson.md": "?[{{ q }} A | B]\n\nUse {{ q }} and {{ nope }}.\n",
        },
    )
    async with session(capabilities("visual-studio-code"), [tmp_path]) as s:
        await s.indexed()
        await wait_until(lambda: bool(s.client.messages))
        assert any("mfcourse.toml" in m.message for m in s.client.messages)
        course_file = uri_of(tmp_path / "mfcourse.toml")
        items = await s.pushed(course_file, lambda d: len(d) > 0)
        assert [d.code for d in items] == ["course-file-invalid"]
        assert items[0].severity == t.DiagnosticSeverity.Error
        assert items[0].range.start.line == 0
        # The defaults still index the lesson: only the unbound key is reported.
        lesson = s.open(tmp_path / "lesson.md")
        found = await s.pushed(lesson, lambda d: len(d) > 0)
        assert [d.code for d in found] == ["unbound-reference"]

        # Fixed on disk: the course file's diagnostic is withdrawn, its settings apply.
        (tmp_path / "mfcourse.toml").write_text('[diagnostics]\nunbound-reference = "off"\n')
        s.client.workspace_did_change_watched_files(
            t.DidChangeWatchedFilesParams(
                changes=[t.FileEvent(uri=course_file, type=t.FileChangeType.Changed)]
            )
        )
        await s.pushed(course_file, lambda d: d == [])
        await s.pushed(lesson, lambda d: d == [])


async def test_watchers_are_registered_when_the_client_allows(tmp_path: Path) -> None:
    write_files(
        tmp_path,
        {"mfcourse.toml": 'lessons = ["./lessons/*.mdx"]\n', "lessons/a.mdx": "?[{{ k }} A]\n"},
    )
    async with session(capabilities("visual-studio-code"), [tmp_path]) as s:
        await s.indexed()

        def globs() -> set[str]:
            return {
                w["globPattern"]
                for r in s.registrations
                for w in r.register_options["watchers"]
                if isinstance(w["globPattern"], str)
            }

        # Replaced once the course is known: its own lesson glob is watched too.
        await wait_until(lambda: "**/lessons/*.mdx" in globs())
        (registration,) = s.registrations
        assert registration.method == t.WORKSPACE_DID_CHANGE_WATCHED_FILES
        assert {"**/mfcourse.toml", "**/*.md", "**/*.mdflow"} <= globs()

    caps = capabilities("visual-studio-code")
    assert caps.workspace is not None and caps.workspace.did_change_watched_files is not None
    caps.workspace.did_change_watched_files.relative_pattern_support = True
    async with session(caps, [tmp_path]) as s:
        await s.indexed()
        await wait_until(
            lambda: any(
                not isinstance(w["globPattern"], str)
                for r in s.registrations
                for w in r.register_options["watchers"]
            )
        )
        (registration,) = s.registrations
        relative = [
            w["globPattern"]
            for w in registration.register_options["watchers"]
            if not isinstance(w["globPattern"], str)
        ]
        assert relative == [{"baseUri": uri_of(tmp_path), "pattern": "lessons/*.mdx"}]


async def test_workspace_folders_added_and_removed(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    write_files(a, {"01.md": "?[{{ shared }} X | Y]\n"})
    write_files(b, {"01.md": "Use {{ shared }}.\n"})
    async with session(capabilities("neovim@v0.11"), [b]) as s:
        await s.indexed()
        symbols = await s.client.workspace_symbol_async(t.WorkspaceSymbolParams(query="shared"))
        assert [x.location.uri for x in symbols or []] == [uri_of(b / "01.md")]
        s.client.workspace_did_change_workspace_folders(
            t.DidChangeWorkspaceFoldersParams(
                event=t.WorkspaceFoldersChangeEvent(
                    added=[t.WorkspaceFolder(uri=uri_of(a), name="a")],
                    removed=[t.WorkspaceFolder(uri=uri_of(b), name="b")],
                )
            )
        )
        await s.indexed(2)
        symbols = await s.client.workspace_symbol_async(t.WorkspaceSymbolParams(query="shared"))
        assert [x.location.uri for x in symbols or []] == [uri_of(a / "01.md")]


async def test_a_file_outside_every_folder_is_a_course_of_its_own(tmp_path: Path) -> None:
    folder, outside = tmp_path / "course", tmp_path / "loose"
    write_files(folder, {"01.md": "?[{{ k }} X | Y]\n"})
    write_files(outside, {"note.mdflow": "Use {{ k }}.\n"})
    async with session(capabilities("neovim@v0.11"), [folder]) as s:
        await s.indexed()
        note = s.open(outside / "note.mdflow", language="markdownflow")
        assert await codes(s, note) == ["unbound-reference"]
