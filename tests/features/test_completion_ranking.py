"""Completion ranks what is real: keys bound in lessons first, doubtful keys last, labelled."""

from __future__ import annotations

from mfls.features.completion import DOUBTFUL, HOST, LESSON, LOCAL, complete
from tests.kit.course import course

CONFIG = 'host = "ai-shifu"\ntarget = "current"\nlessons = ["l*.md"]\nreferences = ["ref/*.md"]\n'
FILES = {
    "mfcourse.toml": CONFIG,
    "l1.md": "?[{{ favourite language }} Python | Go]\n\n?[{{ sys_my_level }} A | B]\n",
    "l2.md": (
        "?[{{ pace }} Slow | Fast]\n\nHello {{ sys_user_nickname }}, "
        "you like {{ favorite language }} and {{ mood }}.\n\n{{$0}}\n"
    ),
    "ref/glossary.md": "?[{{ glossary term }} X | Y]\n",
}


def _items() -> dict[str, object]:
    kit = course(FILES)
    result = complete(kit.snapshot, kit.cursor_uri, kit.offset)
    assert result is not None
    return {item.key: item for item in result.items}


def test_order_this_lesson_other_lessons_host_then_doubtful() -> None:
    items = _items()
    ranked = sorted(items, key=lambda k: items[k].sort_text)
    assert ranked[:2] == ["pace", "favourite language"]
    assert items["pace"].sort_text[0] == LOCAL
    assert items["favourite language"].sort_text[0] == LESSON
    assert items["sys_user_nickname"].sort_text[0] == HOST
    doubtful = {"favorite language", "mood", "sys_my_level", "glossary term"}
    assert {k for k in items if items[k].sort_text[0] == DOUBTFUL} == doubtful
    assert set(ranked[-len(doubtful) :]) == doubtful


def test_real_keys_carry_no_doubt() -> None:
    items = _items()
    real = ("pace", "favourite language", "sys_user_nickname")
    assert [(items[k].kind, items[k].doubt) for k in real] == [
        ("bound", ""),
        ("bound", ""),
        ("host", ""),
    ]


def test_doubtful_keys_say_why() -> None:
    items = _items()
    doubtful = ("favorite language", "mood", "sys_my_level", "glossary term")
    assert [(items[k].kind, items[k].doubt, items[k].detail) for k in doubtful] == [
        (
            "doubtful",
            "typo of “favourite language”?",
            "typo of “favourite language”? · not bound in this course · read once",
        ),
        ("doubtful", "never asked", "not bound in this course · read once"),
        (
            "doubtful",
            "reserved prefix sys_",
            "sys_ is reserved by AI-Shifu · bound in l1.md · read 0×",
        ),
        ("doubtful", "reference only", "bound only in reference glossary.md · read 0×"),
    ]


def test_a_binding_in_this_lesson_of_a_reserved_key_is_not_ranked_first() -> None:
    files = dict(FILES, **{"l2.md": "?[{{ sys_mine }} A]\n\n?[{{ pace }} B]\n\n{{$0}}\n"})
    kit = course(files)
    result = complete(kit.snapshot, kit.cursor_uri, kit.offset)
    items = {item.key: item for item in result.items}
    assert items["pace"].sort_text[0] == LOCAL
    assert items["sys_mine"].sort_text[0] == DOUBTFUL


def test_a_reference_document_ranks_nothing_as_its_own() -> None:
    files = dict(FILES)
    files["ref/glossary.md"] = "?[{{ glossary term }} X | Y]\n\n{{$0}}\n"
    files["l2.md"] = FILES["l2.md"].replace("{{$0}}", "")
    kit = course(files)
    result = complete(kit.snapshot, kit.cursor_uri, kit.offset)
    items = {item.key: item for item in result.items}
    assert items["glossary term"].sort_text[0] == DOUBTFUL
    assert not any(item.sort_text[0] == LOCAL for item in result.items)


def test_a_typo_label_follows_the_key_it_resembles() -> None:
    # The near miss depends on other keys: once the real key is gone the label goes too.
    kit = course(FILES)
    workspace, uri, text = kit.workspace, kit.open("l1.md"), kit.text("l1.md")
    assert complete(workspace.snapshot, kit.cursor_uri, kit.offset) is not None
    start = text.index("?[{{ favourite")
    workspace.change(uri, [(start, text.index("\n", start) + 1, "")], 2)
    result = complete(workspace.snapshot, kit.cursor_uri, kit.offset)
    items = {item.key: item for item in result.items}
    assert sorted(items) == [
        "favorite language",
        "glossary term",
        "mood",
        "pace",
        "sys_my_level",
        "sys_user_background",
        "sys_user_input",
        "sys_user_language",
        "sys_user_nickname",
        "sys_user_style",
    ]
    assert items["favorite language"].doubt == "never asked"


def test_details_and_doubts_in_the_client_language() -> None:
    kit = course(FILES)
    result = complete(kit.snapshot, kit.cursor_uri, kit.offset, language="zh-CN")
    assert result is not None
    items = {item.key: item for item in result.items}
    keys = ("pace", "sys_user_nickname", "favorite language", "mood", "sys_my_level")
    assert [(items[k].doubt, items[k].detail) for k in (*keys, "glossary term")] == [
        ("", "绑定于 l2.md · 读取 0 次"),
        ("", "由 AI-Shifu 提供 · 读取 1 次"),
        (
            "可能是“favourite language”的笔误？",
            "可能是“favourite language”的笔误？ · 本课程中没有绑定 · 读取 1 次",
        ),
        ("从未提问", "本课程中没有绑定 · 读取 1 次"),
        ("保留前缀 sys_", "sys_ 是 AI-Shifu 保留的前缀 · 绑定于 l1.md · 读取 0 次"),
        ("仅在参考文档中", "只在参考文档 glossary.md 中绑定 · 读取 0 次"),
    ]
