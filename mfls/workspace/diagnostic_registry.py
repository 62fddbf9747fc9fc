"""The diagnostic codes, one entry per code: its default severity, its first sentence
(the rule's summary: SARIF's short description), its messages in English and Simplified
Chinese, and the quick fixes that answer it (their title message ids).

The only place a code is spelled: features name codes and message ids by the constants
here (tests/architecture/test_facts_only.py). The docs' code tables are tested against
`REGISTRY` (tests/architecture/test_code_tables.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, NamedTuple

EN: Final = "en"
ZH: Final = "zh-CN"
SEVERITY_NAMES: Final = ("error", "warning", "information", "hint")
OFF: Final = "off"


MARKER_EMPTY: Final = "marker-empty"
MARKER_LINE_BREAK: Final = "marker-line-break"
MARKER_CONTROL_CHARACTER: Final = "marker-control-character"
MARKER_UNCLOSED: Final = "marker-unclosed"
LEGACY_BINDING: Final = "legacy-binding"
UNBOUND_REFERENCE: Final = "unbound-reference"
READ_BEFORE_ASKED: Final = "read-before-asked"
NEAR_MISS: Final = "near-miss"
BINDING_IN_REFERENCE: Final = "binding-in-reference"
RESERVED_KEY_BINDING: Final = "reserved-key-binding"
LEGACY_PROFILE_KEY: Final = "legacy-profile-key"
EMPTY_INTERACTION: Final = "empty-interaction"
RUNTIME_BINDING_IGNORED: Final = "runtime-binding-ignored"
RUNTIME_KEY_DIFFERS: Final = "runtime-key-differs"
FIXED_OUTPUT_UNCLOSED: Final = "fixed-output-unclosed"
UNKNOWN_GATE_VALUE: Final = "unknown-gate-value"
PAGE_UNREADABLE_BINDING: Final = "page-unreadable-binding"
PAGE_READS_OTHERWISE: Final = "page-reads-otherwise"
COURSE_FILE_INVALID: Final = "course-file-invalid"
UNUSED_SUPPRESSION: Final = "unused-suppression"

MARKER_LINE_BREAK_RUNS_ON: Final = "marker-line-break.runs-on"
EMPTY_INTERACTION_LEGACY: Final = "empty-interaction.legacy"
RUNTIME_BINDING_IGNORED_POSITION: Final = "runtime-binding-ignored.position"
UNBOUND_REFERENCE_PAGE: Final = "unbound-reference.page"
RESERVED_KEY_BINDING_PROVIDED: Final = "reserved-key-binding.provided"
RESERVED_KEY_BINDING_PREFIX: Final = "reserved-key-binding.prefix"
PAGE_UNREADABLE_BINDING_FORM: Final = "page-unreadable-binding.form"
PAGE_UNREADABLE_BINDING_LINE: Final = "page-unreadable-binding.line"
UNUSED_SUPPRESSION_UNKNOWN: Final = "unused-suppression.unknown"


class CodeInfo(NamedTuple):
    """One diagnostic code (a named tuple: a text check builds no dataclass). `messages`:
    message id (the code, or `code.variant`) -> language -> `string.Template` text;
    `fixes`: the title ids of the quick fixes (`features/code_actions.py`) that answer it."""

    code: str
    severity: str
    summary: str
    messages: Mapping[str, Mapping[str, str]]
    fixes: tuple[str, ...] = ()


REGISTRY: Final = (
    CodeInfo(
        MARKER_EMPTY,
        "error",
        "A marker names no question: nothing is left between its braces.",
        {
            MARKER_EMPTY: {
                EN: "This memory marker names no question, so it is plain text. Write the question "
                "between the braces, for example `{{ What would you like to learn? }}`.",
                ZH: "这个记忆标记里没有问题，所以只是普通文本。请在花括号之间写上问题，"
                "例如 `{{ 你想学什么？ }}`。",
            },
        },
    ),
    CodeInfo(
        MARKER_LINE_BREAK,
        "error",
        "A line break inside a marker's question.",
        {
            MARKER_LINE_BREAK_RUNS_ON: {
                EN: "This marker is probably missing its `}}`: close it where the question ends. "
                "It ${runs_on}, so the marker is plain text. Joining the lines would make one "
                "long, "
                "wrong question.",
                ZH: "这个标记可能缺少 `}}`：请在问题结束处把它闭合。它${runs_on}，"
                "所以整个标记只是普通文本。把这几行合并只会得到一个又长又错的问题。",
            },
            MARKER_LINE_BREAK: {
                EN: "This question is broken across lines, so the marker is plain text. A question "
                "in "
                "a memory marker must fit on one line. Join the lines.",
                ZH: "这个问题被拆成了多行，所以标记只是普通文本。记忆标记中的问题必须写在同一行内。"
                "请把这几行合并。",
            },
        },
    ),
    CodeInfo(
        MARKER_CONTROL_CHARACTER,
        "error",
        "A control character inside a marker's question.",
        {
            MARKER_CONTROL_CHARACTER: {
                EN: "This question contains an invisible control character${which}. It makes the "
                "marker plain text. Delete the character.",
                ZH: "这个问题里有一个不可见的控制字符${which}。它让整个标记变成了普通文本。"
                "请删除这个字符。",
            },
        },
    ),
    CodeInfo(
        MARKER_UNCLOSED,
        "error",
        "A `{{` that no `}}` closes in its paragraph.",
        {
            MARKER_UNCLOSED: {
                EN: "This `{{` has no closing `}}` in its paragraph. Everything after it, to the "
                "end "
                "of the paragraph, is plain text.${hides} Close the marker with `}}`.",
                ZH: "这个 `{{` 在本段中没有对应的 `}}`。从它开始直到段落结尾都是普通文本。"
                "${hides}请用 `}}` 闭合这个标记。",
            },
        },
    ),
    CodeInfo(
        LEGACY_BINDING,
        "hint",
        "The old `%{{key}}` binding form.",
        {
            LEGACY_BINDING: {
                EN: "`%{{...}}` is the old binding syntax: write `{{ ${bare} }}`. It binds the "
                "same "
                "question. markdown-flow 0.3.1, 0.3.4 and 0.4.2 bind only `%{{...}}`: a "
                "course run by them keeps it (set `target` in mfcourse.toml).",
                ZH: "`%{{...}}` 是旧的绑定写法：请改为 `{{ ${bare} }}`。"
                "两种写法绑定的是同一个问题。"
                "markdown-flow 0.3.1、0.3.4 和 0.4.2 只认 `%{{...}}` 绑定："
                "由它们运行的课程应保留旧写法（在 mfcourse.toml 中设置 `target`）。",
            },
        },
        ("action.convert-legacy",),
    ),
    CodeInfo(
        UNBOUND_REFERENCE,
        "warning",
        "A question no lesson of the course asks.",
        {
            UNBOUND_REFERENCE: {
                EN: "No lesson asks ${short}, so the AI may lack the answer. The host does not "
                "provide "
                "it either. Bind it in an interaction (`?[${binding} ...]`), or "
                "tell the AI to ask for the answer or to use a stated default.",
                ZH: "没有任何课时提问${short}，AI 可能读不到回答。平台也不提供它。请在交互中绑定它"
                "（`?[${binding} ...]`），"
                "或者告诉 AI 去询问用户，或使用事先说明的默认值。",
            },
            UNBOUND_REFERENCE_PAGE: {
                EN: "No lesson asks ${short}, so the AI may lack the answer. The host does not "
                "provide it either, and the learner page reads no binding of this key: rename "
                "it to a key the page reads, such as `${readable}`, and bind that in an "
                "interaction (`?[${binding} ...]`), or tell the AI to ask for the answer or to "
                "use a stated default.",
                ZH: "没有任何课时提问${short}，AI 可能读不到回答。平台也不提供它，而学员页面读不了"
                "这个键的任何绑定：请把它改名为页面能读的键（例如 `${readable}`），再在交互中绑定它"
                "（`?[${binding} ...]`），或者告诉 AI 去询问用户，或使用事先说明的默认值。",
            },
        },
        ("action.ask-for",),
    ),
    CodeInfo(
        READ_BEFORE_ASKED,
        "information",
        "A question read before, in course order, it is first asked.",
        {
            READ_BEFORE_ASKED: {
                EN: "${short} is read here before it is asked. In course order the question is "
                "first bound ${where}. Ask it earlier, or tell the AI what to do while the answer "
                "is missing.",
                ZH: "${short}在提问之前就被读取了。按课程顺序，这个问题${where}才首次绑定。"
                "请提前提问，或者告诉 AI 在还没有回答时该怎么做。",
            },
        },
    ),
    CodeInfo(
        NEAR_MISS,
        "warning",
        "A question almost equal to another question of the course.",
        {
            NEAR_MISS: {
                EN: "Not bound in this course; did you mean ${near}? ${near_full} is ${how}; "
                "${quoted} differs from it only in ${difference}, but a different text is a "
                "different question.",
                ZH: "本课程没有绑定这个问题；你是不是想写${near}？${near_full}${how}；"
                "${quoted}与它只差在${difference}，但文字不同就是不同的问题。",
            },
        },
        (
            "action.replace-with",
            "action.ask-for",
        ),
    ),
    CodeInfo(
        BINDING_IN_REFERENCE,
        "information",
        "A binding in a reference document, which saves no answer.",
        {
            BINDING_IN_REFERENCE: {
                EN: "A binding here grants no permission to save: bind the question in a lesson. "
                "This is a reference document (see `references` in mfcourse.toml), so it saves no "
                "answer to ${quoted}.",
                ZH: "这里的绑定没有保存回答的权限：请在课时中绑定这个问题。这是一个参考文档"
                "（见 mfcourse.toml 中的 `references`），所以不会把回答保存到${quoted}。",
            },
        },
    ),
    CodeInfo(
        RESERVED_KEY_BINDING,
        "error",
        "A binding of a key the host reserves or provides.",
        {
            RESERVED_KEY_BINDING_PROVIDED: {
                EN: "${short} is read-only: the host provides it. ${host} provides ${quoted}, so "
                "an "
                "interaction cannot save an answer to it: choose another question text, or read "
                "the "
                "provided value without binding it.",
                ZH: "${short}是只读的：它由平台提供。${quoted}由 ${host} 提供，交互无法保存对它的"
                "回答：请换一个问题文字，或者只读取这个值而不绑定它。",
            },
            RESERVED_KEY_BINDING_PREFIX: {
                EN: "Questions starting with `${prefix}` are reserved by ${host}. The platform "
                "rejects binding ${quoted}: choose another question text.",
                ZH: "以 `${prefix}` 开头的问题由 ${host} 保留。"
                "平台不接受绑定${quoted}：请换一个问题文字。",
            },
        },
    ),
    CodeInfo(
        LEGACY_PROFILE_KEY,
        "warning",
        "A legacy learner-profile key bound with `%{{...}}`.",
        {
            LEGACY_PROFILE_KEY: {
                EN: "${profile} is a legacy learner-profile key: keep `%{{...}}` here. ${host} "
                "still "
                "accepts `%{{...}}` bindings of its legacy learner-profile keys (${keys}) but "
                "rejects other bindings of questions starting with `${prefix}`. Do not convert it "
                "to `{{ ${key} }}`: that form is such a binding, an error.",
                ZH: "${profile}是旧版学员画像键：这里请保留 `%{{...}}`。${host} 仍接受对其旧版学员"
                "画像键（${keys}）的 `%{{...}}` 绑定，但拒绝其他以 `${prefix}` 开头的问题的绑定。"
                "不要把它改成 `{{ ${key} }}`：那种写法正属于被拒绝的绑定，会报错。",
            },
        },
    ),
    CodeInfo(
        EMPTY_INTERACTION,
        "warning",
        "An interaction with a binding but no choices and no input.",
        {
            EMPTY_INTERACTION: {
                EN: "This interaction offers no choices and no `...` input field. markdown-flow "
                "0.4.2 shows `?[{{ ${key} }}]` as one button that reads the value of ${quoted} "
                "(UNKNOWN while unset) and saves nothing. Add choices (`A | B`) or `...` for a "
                "text "
                "input.",
                ZH: "这个交互既没有选项，也没有 `...` 输入框。markdown-flow 0.4.2 会把 "
                "`?[{{ ${key} }}]` 显示为一个按钮，按钮文字是${quoted}的值（未设置时为 "
                "UNKNOWN），而且不保存任何回答。请添加选项（`A | B`），或用 `...` 提供文本输入。",
            },
            EMPTY_INTERACTION_LEGACY: {
                EN: "This interaction offers no choices and no `...` input field. markdown-flow "
                "0.4.2 shows `?[%{{ ${key} }}]` as a text input with an empty hint; write "
                "`?[${binding} ...]` to say so.",
                ZH: "这个交互既没有选项，也没有 `...` 输入框。markdown-flow 0.4.2 会把 "
                "`?[%{{ ${key} }}]` 显示为一个提示为空的文本输入框；如果这正是你的本意，"
                "请明确写成 `?[${binding} ...]`。",
            },
        },
    ),
    CodeInfo(
        RUNTIME_BINDING_IGNORED,
        "warning",
        "A binding the course target's runtime does not save.",
        {
            RUNTIME_BINDING_IGNORED: {
                EN: "${runtime} saves nothing here: write `${binding}`. It binds an answer "
                "only "
                "with `%{{...}}`: it saves no answer to ${quoted}, and shows this marker as part "
                "of "
                "the first button's text.",
                ZH: "${runtime} 不会在这里保存回答：请写成 `${binding}`。它只认 `%{{...}}` "
                "绑定：不会把回答保存到${quoted}，还会把这个标记当作第一个按钮文字的一部分显示出来。",
            },
            RUNTIME_BINDING_IGNORED_POSITION: {
                EN: "${runtime} saves nothing here: write `%{{` right after `?[`. It binds an "
                "answer "
                "only when the interaction starts with `%{{`; here it saves no answer to ${quoted} "
                "and shows the marker as button text.",
                ZH: "${runtime} 不会在这里保存回答：请把 `%{{` 紧接在 `?[` 之后。只有交互以 `%{{` "
                "开头时它才绑定回答；这里它不会把回答保存到${quoted}，而是把标记显示为按钮文字。",
            },
        },
        ("action.bind-with",),
    ),
    CodeInfo(
        RUNTIME_KEY_DIFFERS,
        "warning",
        "A key the course target's runtime reads otherwise.",
        {
            RUNTIME_KEY_DIFFERS: {
                EN: "${runtime} never reads this marker: its key holds `}`. Its reader stops a key "
                "at "
                "the first `}`, so it neither substitutes nor binds ${quoted}; remove the `}` from "
                "the key.",
                ZH: "${runtime} 读不到这个标记：它的键里含有 `}`。它在第一个 `}` 处就结束键名，"
                "所以既不会替换也不会绑定${quoted}；请把 `}` 从键中去掉。",
            },
        },
    ),
    CodeInfo(
        FIXED_OUTPUT_UNCLOSED,
        "warning",
        "An AI-Shifu `!===` fixed output that no `!===` line closes.",
        {
            FIXED_OUTPUT_UNCLOSED: {
                EN: "This `!===` fixed output is not closed: add a `!===` line. Before the block "
                "ends no `!===` line closes it, so markdown-flow sends the whole block to the AI "
                "as an ordinary prompt, `!===` included.",
                ZH: "这段 `!===` 固定输出没有闭合：请加一行 `!===`。在本块结束之前没有 `!===` "
                "行闭合它，所以 markdown-flow 会把整个块（连同 `!===`）当作普通提示词发给 AI。",
            },
        },
    ),
    CodeInfo(
        UNKNOWN_GATE_VALUE,
        "warning",
        "An AI-Shifu button value starting with `_sys_` that gates nothing.",
        {
            UNKNOWN_GATE_VALUE: {
                EN: "${short} gates nothing: write `_sys_pay` or `_sys_login`. AI-Shifu stops "
                "the lesson for payment or login only at a button whose value is one of them, "
                "written exactly so; this button is an ordinary answer.",
                ZH: "${short} 不会拦住课程：请写成 `_sys_pay` 或 `_sys_login`。只有按钮的值原样"
                "等于其中之一时，AI-Shifu 才会暂停课程等待付费或登录；这个按钮只是普通回答。",
            },
        },
    ),
    CodeInfo(
        PAGE_UNREADABLE_BINDING,
        "warning",
        "A binding AI-Shifu's learner page (remark-flow) does not read.",
        {
            PAGE_UNREADABLE_BINDING: {
                EN: "The learner page reads no binding of ${short}. ${shown}. "
                "The page reads no binding of this key in any form: rename it in the whole "
                "course to one it reads, such as `${readable}`. Answers already stored under "
                "${quoted} stay under it.",
                ZH: "学员页面读不到${short}的绑定。在 ${shown}。页面读不了这个键的任何写法："
                "请在整个课程中把它改名为页面能读的键，例如 `${readable}`。已经存在${quoted}"
                "下的回答仍留在原来的键下。",
            },
            PAGE_UNREADABLE_BINDING_FORM: {
                EN: "The learner page reads no binding of ${short} written so. ${shown}. "
                "Every targeted page version reads `${binding}`: write that.",
                ZH: "学员页面读不到这样写的${short}绑定。在 ${shown}。所有目标页面版本都能读 "
                "`${binding}`：请改成这样写。",
            },
            PAGE_UNREADABLE_BINDING_LINE: {
                EN: "The learner page reads no binding of ${short} here. "
                "${shown}. The page reads the key elsewhere: it is this line that it "
                "reads otherwise.",
                ZH: "学员页面读不了这一行里${short}的绑定。在 ${shown}。页面在别处能读这个键："
                "是这一行被它读成了别的样子。",
            },
        },
        ("action.page-rename", "action.page-form"),
    ),
    CodeInfo(
        PAGE_READS_OTHERWISE,
        "warning",
        "An interaction the AI-Shifu learner page shows differently from the runtime.",
        {
            PAGE_READS_OTHERWISE: {
                EN: "The learner page shows this interaction unlike ${runtime}. ${shown}; "
                "${runtime} reads ${reads}.${causes}",
                ZH: "学员页面显示这个交互的方式与 ${runtime} 不同。在 ${shown}；${runtime} "
                "读到的是${reads}。${causes}",
            },
        },
    ),
    CodeInfo(
        COURSE_FILE_INVALID,
        "error",
        "A problem in mfcourse.toml.",
        {},
    ),
    CodeInfo(
        UNUSED_SUPPRESSION,
        "warning",
        "A `<!-- mfls-disable... -->` comment that silences nothing.",
        {
            UNUSED_SUPPRESSION: {
                EN: "This suppression silences nothing. mfls reports no ${codes} where it "
                "applies: remove ${them}, or it would hide a problem written there later.",
                ZH: "这条屏蔽注释没有屏蔽任何问题。在它作用的地方 mfls 没有报告${codes}："
                "请删掉${them}，否则它会藏起以后写在那里的问题。",
            },
            UNUSED_SUPPRESSION_UNKNOWN: {
                EN: "This suppression names a code mfls does not have. ${codes} silences "
                "nothing: write a code that `mfls check` prints, or remove it.",
                ZH: "这条屏蔽注释写了 mfls 没有的诊断代码。${codes} 什么也屏蔽不了："
                "请写 `mfls check` 输出的代码，或删掉它。",
            },
        },
        ("action.remove-suppression",),
    ),
)
"""Every code, in the order of the docs' tables."""

BY_CODE: Final[Mapping[str, CodeInfo]] = {info.code: info for info in REGISTRY}
DEFAULT_SEVERITIES: Final[Mapping[str, str]] = {info.code: info.severity for info in REGISTRY}
DIAGNOSTIC_MESSAGES: Final[Mapping[str, Mapping[str, str]]] = {
    message_id: texts for info in REGISTRY for message_id, texts in info.messages.items()
}
