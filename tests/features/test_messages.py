"""The message catalog (issue 12): every message in English and Simplified Chinese with
the same arguments, each diagnostic leading with a sentence of at most 80 characters in
both languages, and hovers and code action titles in the chosen language."""

from __future__ import annotations

import re

import pytest

from mfls.features import messages
from mfls.features.binding_spelling import padded
from mfls.features.code_actions import code_actions
from mfls.features.course_info import course_info
from mfls.features.diagnostics import (
    Diagnostic,
    course_file_diagnostics,
    document_diagnostics,
)
from mfls.features.facts import KINDS, LEGEND, PLACE_REFERENCE_BINDING, legend
from mfls.features.hover import hover
from mfls.features.messages import (
    EN,
    LANGUAGES,
    MESSAGES,
    ZH,
    brief,
    first_sentence,
    quoted,
    say,
)
from mfls.features.refusal import Refusal
from mfls.features.scan_rules import _RUNTIME_NAMES
from mfls.workspace.config import TARGETS, ConfigProblem
from mfls.workspace.diagnostic_registry import DEFAULT_SEVERITIES
from mfls.workspace.hosts import HOST_NAMES, host_profile
from tests.kit.course import course as make_course
from tests.kit.course import course_text, diagnostic_marks, expect, hover_text

ARGUMENT = re.compile(r"\$\{(\w+)\}")
LONG = (
    "What would you like to learn in this course and why does it matter to you at this "
    "point of your career"
)
AI_SHIFU = 'host = "ai-shifu"\ntarget = "current"\n'


def placeholders(template: str) -> set[str]:
    return set(ARGUMENT.findall(template))


# -- the catalog ----------------------------------------------------------------------------


def test_every_message_has_both_languages_with_the_same_arguments() -> None:
    assert set(LANGUAGES) == {EN, ZH}
    for message_id, texts in MESSAGES.items():
        assert set(texts) == set(LANGUAGES), message_id
        assert all(texts[language].strip() for language in LANGUAGES), message_id
        assert placeholders(texts[EN]) == placeholders(texts[ZH]), message_id
        for text in texts.values():
            # `$` only as `${name}`: nothing else of a message is read as an argument.
            assert "$" not in ARGUMENT.sub("", text), (message_id, text)


def test_course_file_messages_come_from_the_workspace_in_english() -> None:
    ids = [m for m in MESSAGES if m.startswith(("config.", "structure."))]
    assert len(ids) == 19
    for message_id in ids:
        args = {name: f"<{name}>" for name in placeholders(MESSAGES[message_id][EN])}
        problem = ConfigProblem.of(message_id, args, (0, 1, 0, 0))
        assert (problem.id, problem.message) == (message_id, say(EN, message_id, **args))
        assert "${" not in problem.message


def test_markdown_flow_terms_stay_untranslated() -> None:
    for message_id, texts in MESSAGES.items():
        for term in ("{{", "}}", "%{{", "?[", "!===", "mfcourse.toml", "markdown-flow", "`"):
            assert texts[EN].count(term) == texts[ZH].count(term), (message_id, term)


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("zh-CN", ZH),
        ("zh", ZH),
        ("zh-Hans", ZH),
        ("zh-TW", ZH),
        ("zh-Hant-HK", ZH),
        ("zh_CN.UTF-8", ZH),
        ("zh_TW.Big5@stroke", ZH),
        ("ZH-cn", ZH),
        ("en", EN),
        ("en-US", EN),
        ("en_GB.UTF-8", EN),
        ("C", EN),
        ("POSIX", EN),
        ("C.UTF-8", EN),
        ("ja-JP", EN),
        ("zhx", EN),
        ("", EN),
        (None, EN),
    ],
)
def test_a_locale_chooses_a_language(locale: str | None, language: str) -> None:
    assert messages.language_of(locale) == language


def test_first_sentence_skips_marks_in_code_and_quotes() -> None:
    assert first_sentence("Did you mean “What? Now.”? More.") == "Did you mean “What? Now.”?"
    assert first_sentence("Write `a. b` here. Then.") == "Write `a. b` here."
    assert first_sentence("本课程没有绑定“是吗？”。然后。") == "本课程没有绑定“是吗？”。"
    assert first_sentence("No end") == "No end"
    assert first_sentence("Version 0.4.2 shows it. Then") == "Version 0.4.2 shows it."


def test_brief_keeps_short_keys_and_cuts_long_ones() -> None:
    assert brief("goal") == "“goal”"
    assert brief(LONG) == "“What would you like to learn…”"
    assert len(brief(LONG)) <= 32
    assert messages.bare(LONG) == "What would you like to…"


def _longest(language: str, *message_ids: str, **args: object) -> str:
    return max((say(language, m, **args) for m in message_ids), key=len)


def _worst_arguments(language: str, message_id: str) -> dict[str, str]:
    """Each argument at the longest a diagnostic gives it where it is bounded; unbounded
    ones (full keys, file names, lists) at 300 characters, so a first sentence holding
    one fails."""
    unbounded = "u" * 300
    hosts = [host_profile(name) for name in HOST_NAMES]
    bounded = {
        "short": brief(LONG * 3),
        "bare": messages.bare(LONG * 3),
        "binding": padded(messages.bare(LONG * 3), True),
        "near": brief(LONG * 3, 38),
        # legacy-profile-key names one of the host's legacy learner-profile keys.
        "profile": max((quoted(k) for h in hosts for k in h.legacy_profile_keys), key=len),
        "runtime": max(_RUNTIME_NAMES.values(), key=len),
        "host": max((h.title or h.name for h in hosts), key=len),
        "prefix": max((p for h in hosts for p in h.reserved_prefixes), key=len),
        "which": say(language, "part.which-character", code="U+0007"),
        "count": "99999",
        "runs_on": _longest(
            language,
            "part.runs-on.marker",
            "part.runs-on.interaction",
            "part.runs-on.lines",
            count=99999,
        ),
        "percent": "%",
        "how": _longest(language, "part.near.bound", "part.near.provided"),
        # A diagnostic code, a course file field, a TOML key as an author types it.
        "code": max(DEFAULT_SEVERITIES, key=len),
        "key": unbounded if not message_id.startswith("config.") else "x" * 24,
    }
    names = placeholders(MESSAGES[message_id][language])
    return {name: bounded.get(name, unbounded) for name in names}


def _diagnostic_message_ids() -> list[str]:
    codes = set(DEFAULT_SEVERITIES)
    return [m for m in MESSAGES if m.split(".")[0] in codes or m.startswith("config.")]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("message_id", _diagnostic_message_ids())
def test_every_diagnostic_message_leads_with_at_most_80_characters(
    message_id: str, language: str
) -> None:
    text = say(language, message_id, **_worst_arguments(language, message_id))
    sentence = first_sentence(text)
    assert len(sentence) <= messages.FIRST_SENTENCE_LIMIT, (len(sentence), sentence)


def test_every_code_has_a_message_and_targets_are_named() -> None:
    ids = _diagnostic_message_ids()
    for code in DEFAULT_SEVERITIES:
        assert any(m.split(".")[0] == code for m in ids) or code == "course-file-invalid"
    assert set(_RUNTIME_NAMES) == set(TARGETS) - {"current"}


# -- every diagnostic code, produced --------------------------------------------------------

_CASES: list[tuple[dict[str, str], str | None]] = [
    ({"a.md": "Hi {{ }} there.\n"}, None),
    ({"a.md": "Hi {{ KEY\nmore\nstill }} there.\n"}, None),
    ({"a.md": "Hi {{ KEY\nwrapped }} there.\n"}, None),
    ({"a.md": "Hi {{ KEY\x07 }} there.\n"}, None),
    ({"a.md": "Use {{ KEY then ?[A|B] and more\n"}, None),
    ({"a.md": "?[%{{ KEY }} A | B]\n"}, None),
    ({"a.md": "Use {{ KEY }}.\n"}, None),
    ({"a.md": "Use {{ KEY }}.\n\n?[{{ KEY }} A | B]\n"}, None),
    ({"a.md": "?[{{ KEY }} A | B]\n\nUse {{ KEYx }}.\n"}, None),
    ({"a.md": "?[{{ KEY }} A]\n", "ref.md": "?[{{ KEY }} B]\n"}, 'references = ["ref.md"]\n'),
    ({"a.md": "?[{{ sys_KEY }} A]\n\n?[{{ browser_language }} B]\n"}, AI_SHIFU),
    ({"a.md": "?[%{{ sys_user_nickname }} ...]\n"}, AI_SHIFU),
    ({"a.md": "?[{{ KEY }}]\n\n?[%{{ KEY }}]\n"}, None),
    ({"a.md": "?[{{ KEY }} A | B]\n"}, 'target = "markdown-flow-0.4"\n'),
    ({"a.md": "?[ %{{ KEY }} A | B]\n\nHi {{ a} }}.\n"}, 'target = "markdown-flow-0.3"\n'),
    ({"a.md": "Intro\n---\n!===\nnot closed\n---\nnext\n"}, AI_SHIFU),
    ({"a.md": "?[Pay//_sys_KEY]\n"}, AI_SHIFU),
    # The learner page: a padded binding (a long key: unread in any form), an escape.
    ({"a.md": "?[%{{ KEY }} A | B]\n\n?[%{{x}} a\\|b | c]\n\n{{ x }}\n"}, AI_SHIFU),
    # Suppressions that silence nothing, or name a code mfls does not have.
    (
        {"a.md": "<!-- mfls-disable-next-line near-miss -->\nHi.\n\n<!-- mfls-disable KEY -->\n"},
        None,
    ),
]
_COURSE_FILES = [
    "name = = 1\n",
    'colour = "red"\nname = 1\nhost = "nowhere"\ntarget = "0.9"\nlessons = "a.md"\n'
    "diagnostics = 3\n",
    '[diagnostics]\nno-such-code = "error"\nnear-miss = "loud"\n',
]


def _produced(key: str, language: str) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for files, config in _CASES:
        texts = {name: text.replace("KEY", key) for name, text in files.items()}
        course = make_course(texts, config=config)
        for name in texts:
            found.extend(document_diagnostics(course.snapshot, course.uri(name), language))
    for config in _COURSE_FILES:
        course = make_course({"a.md": "Hi.\n"}, config=config)
        [course_id] = course.snapshot.courses
        found.extend(course_file_diagnostics(course.snapshot, course_id, language))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", ["goal", LONG])
def test_every_code_is_produced_and_leads_with_a_short_sentence(key: str, language: str) -> None:
    found = _produced(key, language)
    assert {d.code for d in found} == set(DEFAULT_SEVERITIES)
    for diagnostic in found:
        sentence = first_sentence(diagnostic.message)
        assert len(sentence) <= 80, (diagnostic.code, sentence)
        if language == ZH:
            assert re.search(r"[\u4e00-\u9fff]", sentence), diagnostic.message
        for related in diagnostic.related:
            assert related[3] in {
                say(language, "related.lesson-binds"),
                say(language, "related.first-bound"),
            } or related[3].endswith(say(language, "related.near-bound", quoted="")[1:])


def test_chinese_and_english_messages_say_the_same_places() -> None:
    english = _produced("goal", EN)
    chinese = _produced("goal", ZH)
    assert [(d.code, d.start, d.end, d.severity) for d in english] == [
        (d.code, d.start, d.end, d.severity) for d in chinese
    ]
    assert all(e.message != c.message for e, c in zip(english, chinese, strict=True))


def test_a_chinese_message_reads_naturally() -> None:
    made = course_text(
        """
        ?[{{ 你的名字 }} ...]
        %%   ^^^^ related: “你的名字”在这里绑定

        你好，{{ 你的名子 }}。
        %% ^^^^^^^^^^ near-miss warning: 本课程没有绑定这个问题；你是不是想写“你的名字”？“你的名字”已绑定；“你的名子”与它只差在 1 个字符（忽略大小写、空白和标点之后），但文字不同就是不同的问题。
        """  # noqa: E501
    )
    found = document_diagnostics(made.snapshot, made.uri("01.md"), ZH)
    made.check(diagnostic_marks(made, "01.md", found))
    assert first_sentence(found[0].message) == "本课程没有绑定这个问题；你是不是想写“你的名字”？"


# -- hovers and code action titles ----------------------------------------------------------


def test_hover_in_chinese_counts_and_links_places() -> None:
    made = course_text(
        """
        //- mfcourse.toml
        name = "Python"
        lessons = ["a.md", "b.md"]
        //- a.md
        ?[{{ $0goal }} Learn | Build | ...Other]
        //- b.md
        Use {{ goal }}.

        And {{ goal }} again.
        """
    )
    chinese = hover(made.snapshot, made.cursor_uri, made.offset, ZH)
    expect(hover_text(made, chinese), "hover/binding_zh.md")
    english = hover(made.snapshot, made.cursor_uri, made.offset)
    expect(hover_text(made, english), "hover/binding_en.md")


@pytest.mark.parametrize("count", [1, 3])
def test_hover_counts_read_in_plain_words(count: int) -> None:
    uses = ["Use {{ goal }}.\n"] * count
    files = {"a.md": "?[{{ goal }} A]\n", "b.md": uses[0]}
    if count > 1:
        files["c.md"] = "".join(uses[1:])
    made = make_course(files)
    info = hover(made.snapshot, made.uri("a.md"), 5)
    expect(hover_text(made, info, "a.md"), f"hover/read_{count}_times.md")


def test_hover_of_an_invalid_marker_in_chinese() -> None:
    made = course_text("Use {{$0 topic then ?[A|B] and more\n")
    info = hover(made.snapshot, made.cursor_uri, made.offset, ZH)
    expect(hover_text(made, info), "hover/unclosed_marker_zh.md")


def test_hover_escapes_a_place_label_for_markdown() -> None:
    made = make_course({"l[1]*.md": "?[{{ goal }} A]\n"})
    info = hover(made.snapshot, made.uri("l[1]*.md"), 5)
    expect(hover_text(made, info, "l[1]*.md"), "hover/place_label_escaped.md")


def test_course_info_refuses_in_the_client_language() -> None:
    made = course_text("Hello.\n")
    elsewhere = "file:///elsewhere/a.md"
    assert course_info(made.snapshot, elsewhere, ZH) == Refusal(
        "这个文件不属于任何 MarkdownFlow 课程。"
    )
    assert course_info(made.snapshot, elsewhere) == Refusal(
        "This file belongs to no MarkdownFlow course."
    )


def test_the_legend_in_both_languages() -> None:
    assert legend(EN) == dict(LEGEND)
    assert legend(ZH)[PLACE_REFERENCE_BINDING] == "在参考文档中提问：不会保存回答"
    assert set(legend(ZH)) == set(KINDS)


def test_code_action_titles_in_chinese() -> None:
    text = "?[%{{goal}} A | B]\n\nUse {{ goel }} and {{ topic }}.\n"
    made = make_course({"a.md": text})
    uri = made.uri("a.md")
    titles = [a.title for a in code_actions(made.snapshot, uri, 0, len(text), language=ZH)]
    assert titles == [
        "把旧写法绑定转换为 {{ goal }}",
        "把标记补齐空格为 %{{ goal }}",
        "替换为 {{ goal }}",
        "在首次使用前用交互提问“goel”",
        "把键“goel”合并到“goal”",
        "在首次使用前用交互提问“topic”",
        "在这里忽略这个问题（legacy-binding）",
        "在这里忽略这个问题（near-miss）",
        "在这里忽略这个问题（unbound-reference）",
        "把本文档中所有旧写法绑定转换为 {{ key }}",
        "把本文档中所有标记补齐空格为 {{ key }}",
        "把本课程中所有旧写法绑定转换为 {{ key }}",
        "把本课程中所有标记补齐空格为 {{ key }}",
    ]
    english = [a.title for a in code_actions(made.snapshot, uri, 0, len(text))]
    assert english == [
        "Convert legacy binding to {{ goal }}",
        "Pad marker to %{{ goal }}",
        "Replace with {{ goal }}",
        "Ask for “goel” in an interaction before its first use",
        "Merge key “goel” into “goal”",
        "Ask for “topic” in an interaction before its first use",
        "Ignore this problem here (legacy-binding)",
        "Ignore this problem here (near-miss)",
        "Ignore this problem here (unbound-reference)",
        "Convert every legacy binding in this document to {{ key }}",
        "Pad every marker in this document to {{ key }}",
        "Convert every legacy binding in this course to {{ key }}",
        "Pad every marker in this course to {{ key }}",
    ]


def test_english_quotes_a_key_as_its_diagnostics_do() -> None:
    # One quoting in English: “key”, as the diagnostics and the Chinese titles write it.
    ascii_quoted = re.compile(r"'\$\{\w+\}'")
    assert [m for m, words in MESSAGES.items() if ascii_quoted.search(words[EN])] == []
