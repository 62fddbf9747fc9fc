"""The message catalog: every diagnostic message, hover text and code action title, in
English and Simplified Chinese, and the choice of a language from a locale name.

Features take a `language` (`EN` or `ZH`, English by default) and render each message
once, with `say`. A message is a `string.Template`: `${name}` is an argument, every other
character (MarkdownFlow's `{{ }}` included) is literal. A diagnostic message's first
sentence carries the point in at most 80 characters (`first_sentence`); its arguments
there are kept short with `brief`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from string import Template
from typing import Final

from mfls.features.inlay_hint_messages import INLAY_HINT_MESSAGES
from mfls.workspace.config import CONFIG_MESSAGES
from mfls.workspace.diagnostic_registry import DIAGNOSTIC_MESSAGES, EN, ZH

LANGUAGES: Final = (EN, ZH)
AUTO: Final = "auto"
FIRST_SENTENCE_LIMIT: Final = 80


def language_of(locale: str | None) -> str:
    """The catalog language for a locale name: a BCP 47 tag (`zh-CN`, `zh-Hant-TW`) or a
    POSIX locale (`zh_CN.UTF-8`). Every Chinese locale gets Simplified Chinese, the only
    Chinese of the catalog; anything else, or none, gets English."""
    if not locale:
        return EN
    name = locale.split(".", 1)[0].split("@", 1)[0].replace("_", "-").lower()
    return ZH if name == "zh" or name.startswith("zh-") else EN


def quoted(key: str) -> str:
    return f"“{key}”"


def brief(key: str, limit: int = 30) -> str:
    """`key` quoted, cut to `limit` characters (ending in `…`) so that a first sentence
    naming it stays short; the later sentences name it whole."""
    return quoted(bare(key, limit))


def bare(key: str, limit: int = 24) -> str:
    """`key` cut like `brief`, unquoted (for a first sentence writing it in a marker)."""
    return key if len(key) <= limit else key[: limit - 1].rstrip() + "…"


_SENTENCE_END: Final = re.compile(r"[.?!](?=\s|$)|[。？！]")
_QUOTED: Final = re.compile(r"`[^`]*`|“[^”]*”")


def first_sentence(message: str) -> str:
    """The message up to its first full stop, question or exclamation mark (one followed
    by a space or the end, or a Chinese one); marks inside `code` or “quotes” do not end
    a sentence."""
    hidden = _QUOTED.sub(lambda m: "x" * len(m.group()), message)
    found = _SENTENCE_END.search(hidden)
    return message if found is None else message[: found.end()]


# -- the catalog ----------------------------------------------------------------------------
# A diagnostic's messages are in its entry of `workspace/diagnostic_registry.py` (`config.`
# ones, course-file-invalid's, in `workspace/config.py`); `part.` are pieces put into other
# messages, `related.` the messages of related places, `hover.` hover texts, `action.` code
# action titles.

_MESSAGES: dict[str, dict[str, str]] = {
    # -- diagnostics: scanner level
    "part.runs-on.marker": {
        EN: "runs on into the next marker and ends at that marker's `}}`",
        ZH: "一直延伸到下一个标记，在那个标记的 `}}` 处才结束",
    },
    "part.runs-on.interaction": {
        EN: "runs on into an interaction and ends at a later `}}`",
        ZH: "一直延伸进一个交互，在后面的某个 `}}` 处才结束",
    },
    "part.runs-on.lines": {
        EN: "runs on over ${count} lines to a later `}}`",
        ZH: "跨越 ${count} 行，直到后面的某个 `}}`",
    },
    "part.which-character": {EN: " (${code})", ZH: "（${code}）"},
    "part.hides.one": {
        EN: " It hides ${what} written after it.",
        ZH: "它遮住了后面写的${what}。",
    },
    "part.hides.both": {
        EN: " It hides ${markers} and ${interactions} written after it.",
        ZH: "它遮住了后面写的${markers}和${interactions}。",
    },
    "part.count.markers.one": {EN: "1 memory marker", ZH: " 1 个记忆标记"},
    "part.count.markers.other": {EN: "${count} memory markers", ZH: " ${count} 个记忆标记"},
    "part.count.interactions.one": {EN: "1 interaction", ZH: " 1 个交互"},
    "part.count.interactions.other": {EN: "${count} interactions", ZH: " ${count} 个交互"},
    # -- diagnostics: course level
    "part.where.later": {EN: "later in this lesson", ZH: "在本课时的后文"},
    "part.where.in": {EN: "in ${label}", ZH: "在 ${label} 中"},
    "part.near.bound": {EN: "bound", ZH: "已绑定"},
    "part.near.provided": {EN: "provided by the host", ZH: "由平台提供"},
    "part.differs.letters.one": {
        EN: "1 letter (after ignoring case, spacing and punctuation)",
        ZH: " 1 个字符（忽略大小写、空白和标点之后）",
    },
    "part.differs.letters.other": {
        EN: "${count} letters (after ignoring case, spacing and punctuation)",
        ZH: " ${count} 个字符（忽略大小写、空白和标点之后）",
    },
    "part.differs.spacing": {EN: "spacing", ZH: "空白"},
    "part.differs.case": {EN: "letter case", ZH: "大小写"},
    "part.differs.nfkc": {EN: "Unicode form (NFKC)", ZH: " Unicode 形式（NFKC）"},
    "part.differs.any": {
        EN: "spacing, letter case, Unicode form or punctuation",
        ZH: "空白、大小写、Unicode 形式或标点",
    },
    # what AI-Shifu's learner page shows (features/page_checks.py)
    "part.page.on": {EN: "on ${page}, the learner gets ${what}", ZH: "${page} 上，学员看到${what}"},
    "part.page.raw": {
        EN: "the line as raw text, with nothing to click or type in",
        ZH: "整行原样显示的文本，没有可点击或输入的地方",
    },
    "part.page.marker-buttons": {
        EN: "buttons without a binding, the marker in the first one's label",
        ZH: "不绑定任何键的按钮，第一个按钮的文字里带着这个标记",
    },
    "part.page.buttons": {EN: "the buttons ${labels}", ZH: "按钮 ${labels}"},
    "part.page.button": {EN: "the one button ${labels}", ZH: "唯一的按钮 ${labels}"},
    "part.page.check-boxes": {EN: "the check boxes ${labels}", ZH: "多选框 ${labels}"},
    "part.page.valued": {EN: "${label} (saving ${value})", ZH: "${label}（保存 ${value}）"},
    "part.page.input": {EN: "a text input ${hint}", ZH: "文本输入框 ${hint}"},
    "part.page.nothing": {EN: "nothing to answer", ZH: "没有可回答的内容"},
    "part.page.and": {EN: " and ", ZH: "和"},
    "part.page.cause.escape": {
        EN: " Markdown drops a backslash before punctuation before the page reads the "
        "line: the page knows no escapes.",
        ZH: "页面读这一行之前，Markdown 已去掉标点前的反斜杠：页面不认转义。",
    },
    "part.page.cause.full-width": {
        EN: " remark-flow 1.0.0-alpha.7 also splits choices at the full-width `｜`.",
        ZH: "remark-flow 1.0.0-alpha.7 还会在全角 `｜` 处拆分选项。",
    },
    "part.page.cause.multiple": {
        EN: " remark-flow 1.0.0-alpha.7 has no multiple choice.",
        ZH: "remark-flow 1.0.0-alpha.7 不支持多选。",
    },
    "part.page.cause.multiple-unbound": {
        EN: " The page offers multiple choice only after a binding.",
        ZH: "页面只在绑定之后才提供多选。",
    },
    "part.page.cause.input": {
        EN: " The page reads `...` as a text input only after a binding.",
        ZH: "页面只在绑定之后才把 `...` 读作文本输入框。",
    },
    "config.unreadable": {EN: "", ZH: "课程文件无法读取。所有设置暂用默认值。"},
    "structure.unreadable": {
        EN: "",
        ZH: "structure.json 无法读取（${reason}）；在此之前课时按编号顺序取 "
        "`lessons/lesson-*.md`。",
    },
    "structure.invalid-json": {
        EN: "",
        ZH: "structure.json 不是有效的 JSON：${reason}。修好之前课时按编号顺序取 "
        "`lessons/lesson-*.md`。",
    },
    "structure.shape": {
        EN: "",
        ZH: "${what}：课程工具在这里读取 ${expected}；这一部分已忽略。",
    },
    "structure.missing-file": {
        EN: "",
        ZH: "lessons/ 里没有 `${file}`：这个课时不在课程中。课程工具的 `build` "
        '也会跳过它（"file not found"）。',
    },
    "structure.outside": {
        EN: "",
        ZH: "`${file}` 不是 lessons/ 里的文件：课程工具会拒绝它，"
        "mfls 也不读取课程文件夹以外的内容。",
    },
    "structure.duplicate": {
        EN: "",
        ZH: "`${file}` 第二次出现：它只在第一次列出的位置运行一次。课程工具的 `build` "
        "会把它做成第二个课时。",
    },
    "config.invalid-toml": {
        EN: "",
        ZH: "课程文件不是有效的 TOML。修好之前所有设置都用默认值。TOML 解析器报告：${reason}。",
    },
    "config.unknown-setting": {
        EN: "",
        ZH: "未知设置 `${key}`，已忽略。课程文件支持的设置有：${known}。",
    },
    "config.name-type": {EN: "", ZH: "`name` 必须是字符串，已忽略。"},
    "config.host-value": {
        EN: "",
        ZH: "`host` 的值无效，按通用平台处理。它必须是以下之一：${choices}。",
    },
    "config.target-value": {
        EN: "",
        ZH: "`target` 的值无效，使用平台的默认目标。`target` 必须是以下之一：${choices}。",
    },
    "config.page-value": {
        EN: "",
        ZH: "`page` 不是 mfls 检查的学员页面版本，按所有检查的版本处理。`page` 必须是以下之一"
        "或它们的列表：${choices}。",
    },
    "config.list-type": {EN: "", ZH: "`${key}` 必须是字符串列表，已忽略。"},
    "config.diagnostics-type": {
        EN: "",
        ZH: "`diagnostics` 必须是“代码 = 严重级别”的表，已忽略。",
    },
    "config.unknown-code": {EN: "", ZH: "未知的诊断代码 `${code}`，已忽略。"},
    "config.severity-value": {
        EN: "",
        ZH: "`${code}` 的严重级别无效，使用默认级别。它必须是以下之一：${choices}。",
    },
    "config.document-limit": {
        EN: "",
        ZH: "课程超过文档数上限，检查不完整。它的文件夹只列出了 ${limit} 个文件，"
        "之后的文件未计入课程。",
    },
    "config.file-limit": {
        EN: "",
        ZH: "课程中的一个文件超过大小上限，未计入课程，检查不完整。`${path}` 大于 ${limit} "
        "字节，其中的绑定不计。",
    },
    # -- related places
    "related.lesson-binds": {EN: "a lesson binds it here", ZH: "某个课时在这里绑定了它"},
    "related.first-bound": {EN: "first bound here", ZH: "在这里首次绑定"},
    "related.near-bound": {EN: "${quoted} is bound here", ZH: "${quoted}在这里绑定"},
    # -- hovers
    "hover.not-marker": {EN: "**Not a memory marker**: ${why}", ZH: "**不是记忆标记**：${why}"},
    "hover.why.empty": {
        EN: "it names no question: nothing is left between the braces once the surrounding "
        "spaces are removed.",
        ZH: "它没有写问题：去掉两侧空白后，花括号之间什么也没有。",
    },
    "hover.why.line-break": {
        EN: "its question is broken across lines; a question must fit on one line.",
        ZH: "它的问题被拆成了多行；问题必须写在同一行内。",
    },
    "hover.why.control-character": {
        EN: "its question contains an invisible control character.",
        ZH: "它的问题里有一个不可见的控制字符。",
    },
    "hover.why.unclosed": {
        EN: "no `}}` closes it in its paragraph, so it turns the rest of the paragraph into "
        "plain text.",
        ZH: "本段中没有 `}}` 闭合它，所以段落的其余部分都变成了普通文本。",
    },
    "hover.why.runs-on": {
        EN: "it probably lacks its `}}`: it ${runs_on}.",
        ZH: "它可能缺少 `}}`：它${runs_on}。",
    },
    "hover.hides.one": {
        EN: "It hides ${what} written after it.",
        ZH: "它遮住了后面写的${what}。",
    },
    "hover.hides.both": {
        EN: "It hides ${markers} and ${interactions} written after it.",
        ZH: "它遮住了后面写的${markers}和${interactions}。",
    },
    "hover.plain-text": {EN: "The AI reads it as plain text.", ZH: "AI 把它当作普通文本读取。"},
    "hover.context.code-span": {EN: "a code span", ZH: "行内代码"},
    "hover.context.math": {EN: "inline math", ZH: "行内公式"},
    "hover.context.link-destination": {EN: "a link destination", ZH: "链接地址"},
    "hover.context.link-title": {EN: "a link title", ZH: "链接标题"},
    "hover.context.link-label": {EN: "a link label", ZH: "链接标签"},
    "hover.context.link-definition": {EN: "a link reference definition", ZH: "链接引用定义"},
    "hover.context.autolink": {EN: "an autolink", ZH: "自动链接"},
    "hover.context.html-tag": {EN: "an HTML tag", ZH: " HTML 标签"},
    "hover.context.html-comment": {EN: "an HTML comment", ZH: " HTML 注释"},
    "hover.context.html-block": {EN: "a raw HTML block", ZH: "原始 HTML 块"},
    "hover.context.info-string": {EN: "a code block's info string", ZH: "代码块的信息字符串"},
    "hover.context.literal": {EN: "a literal context", ZH: "字面上下文"},
    "hover.dropped.html-comment": {
        EN: "markdown-flow removes comments before the AI sees the text",
        ZH: "markdown-flow 会在 AI 看到文本之前删除注释",
    },
    "hover.dropped.info-string": {
        EN: "markdown-flow keeps a fenced code block, its info string included, exactly as written",
        ZH: "markdown-flow 会原样保留围栏代码块，包括它的信息字符串",
    },
    "hover.literal.substituted": {
        EN: "**Reference** inside ${where}: ${runtime} substitutes it there too, so it is "
        "checked like any reference.",
        ZH: "位于${where}中的**引用**：${runtime} 在这里同样会替换它，所以它和其他引用一样受检查。",
    },
    "hover.literal.checked": {
        EN: "**Reference** inside ${where}: checked like any reference.",
        ZH: "位于${where}中的**引用**：和其他引用一样受检查。",
    },
    "hover.literal.dropped-because": {
        EN: "**Reference** inside ${where}: ${why}, so this is never substituted on ${host}. "
        "It raises no course diagnostic.",
        ZH: "位于${where}中的**引用**：${why}，所以在 ${host} 上它永远不会被替换。"
        "它不会引发课程诊断。",
    },
    "hover.literal.dropped": {
        EN: "**Reference** inside ${where}, never substituted on ${host}. It raises no "
        "course diagnostic.",
        ZH: "位于${where}中的**引用**，在 ${host} 上永远不会被替换。它不会引发课程诊断。",
    },
    "hover.binding": {
        EN: "**Binding**${legacy}: this interaction saves the user's answer to this question.",
        ZH: "**绑定**${legacy}：这个交互会把用户对这个问题的回答保存下来。",
    },
    "hover.binding.ignored": {
        EN: "**Not a binding on ${runtime}**: this interaction saves no answer there (see "
        "its diagnostic); the marker reads the answer instead.",
        ZH: "**在 ${runtime} 上不是绑定**：这个交互在那里不会保存回答（见其诊断）；这个标记"
        "改为读取回答。",
    },
    "hover.binding.in-reference": {
        EN: "**Binding**${legacy} in a reference document: it grants no permission to save "
        "the answer.",
        ZH: "参考文档中的**绑定**${legacy}：它没有保存回答的权限。",
    },
    "hover.legacy-form": {EN: " (old `%{{...}}` form)", ZH: "（旧的 `%{{...}}` 写法）"},
    "hover.reference": {
        EN: "**Reference**: the AI reads the remembered answer to this question.",
        ZH: "**引用**：AI 会读取这个问题已记住的回答。",
    },
    "hover.look-closely": {EN: "Look closely:", ZH: "请仔细看："},
    "hover.note.spaces": {
        EN: "${count} spaces in a row at character ${at}",
        ZH: "第 ${at} 个字符处有 ${count} 个连续空格",
    },
    "hover.note.character": {
        EN: "${code} ${name} at character ${at}",
        ZH: "第 ${at} 个字符是 ${code} ${name}",
    },
    "hover.asked": {EN: "Asked with ${asked}.", ZH: "提问方式：${asked}。"},
    "hover.asked.choices": {EN: "choices: ${choices}", ZH: "选项 ${choices}"},
    "hover.asked.input": {EN: "free input", ZH: "自由输入"},
    "hover.asked.separator": {EN: "; ", ZH: "；"},
    "hover.list-separator": {EN: ", ", ZH: "、"},
    "hover.bound-in": {EN: "Bound in ${places}.", ZH: "绑定位置：${places}。"},
    "hover.bound-in.more": {
        EN: "Bound in ${places} and ${more} more.",
        ZH: "绑定位置：${places}，另有 ${more} 处。",
    },
    "hover.bound-in-references": {
        EN: "Not bound in any lesson: bound only in reference documents (${places}), "
        "which save no answer.",
        ZH: "没有任何课时绑定它：只在参考文档中绑定（${places}），参考文档不会保存回答。",
    },
    "hover.not-bound": {
        EN: "Not bound anywhere in this course.",
        ZH: "本课程中没有任何地方绑定它。",
    },
    "lens.unread": {EN: "asked here · not read yet", ZH: "在此提问 · 尚未被读取"},
    "lens.read": {
        EN: "asked here · read ${times} in ${where}",
        ZH: "在此提问 · 在${where}中读取${times}",
    },
    "lens.times.one": {EN: "1 time", ZH: " 1 次"},
    "lens.times.other": {EN: "${count} times", ZH: " ${count} 次"},
    "lens.lessons.one": {EN: "1 lesson", ZH: " 1 个课时"},
    "lens.lessons.other": {EN: "${count} lessons", ZH: " ${count} 个课时"},
    "lens.documents.one": {EN: "1 document", ZH: " 1 个文档"},
    "lens.documents.other": {EN: "${count} documents", ZH: " ${count} 个文档"},
    "rename.stored-answers": {
        EN: "Stored answers stay under the old key '${old}'. Hosts store answers by key and "
        "do not migrate them: learners who answered before are asked again for '${new}', or "
        "the lessons fall back to their stated default.",
        ZH: "已保存的回答仍留在旧键“${old}”下。平台按键保存回答且不会迁移：之前回答过的学员"
        "会被重新询问“${new}”，否则课时会退回到其中写明的默认内容。",
    },
    "hover.read": {
        EN: "Read ${times} in ${documents} of ${course}.",
        ZH: "在课程“${course}”的${documents}中读取了${times}。",
    },
    "hover.times.one": {EN: "once", ZH: " 1 次"},
    "hover.times.other": {EN: "${count} times", ZH: " ${count} 次"},
    "hover.documents.one": {EN: "1 document", ZH: " 1 个文档"},
    "hover.documents.other": {EN: "${count} documents", ZH: " ${count} 个文档"},
    "hover.not-read": {
        EN: "Not read anywhere in ${course}.",
        ZH: "课程“${course}”中没有任何地方读取它。",
    },
    "hover.legacy-profile": {
        EN: "A legacy learner-profile key: ${host} still accepts its `%{{...}}` binding.",
        ZH: "旧版学员画像键：${host} 仍接受它的 `%{{...}}` 绑定。",
    },
    "hover.provided": {EN: "Provided by ${host} (read-only).", ZH: "由 ${host} 提供（只读）。"},
    "hover.prefix": {
        EN: "The prefix `${prefix}` is reserved by ${host}.",
        ZH: "前缀 `${prefix}` 由 ${host} 保留。",
    },
    "hover.fixed-block": {
        EN: "Inside fixed output: markdown-flow shows this block as written, without the AI, "
        "and still substitutes the marker with the answer.",
        ZH: "位于固定输出中：markdown-flow 不经过 AI，原样显示这个块，但仍会把标记替换为回答。",
    },
    "hover.fixed-span": {
        EN: "Inside fixed output: markdown-flow tells the AI to output this text as written, "
        "and still substitutes the marker with the answer.",
        ZH: "位于固定输出中：markdown-flow 让 AI 原样输出这段文字，但仍会把标记替换为回答。",
    },
    # What markdown-flow 0.4.2 does with fixed output (tests/hosts).
    "hover.fixed.line": {
        EN: "Fixed output: a `===text===` line.",
        ZH: "固定输出：一行 `===文字===`。",
    },
    "hover.fixed.fence": {
        EN: "Fixed output: the lines between two `!===` lines.",
        ZH: "固定输出：两行 `!===` 之间的内容。",
    },
    "hover.fixed.in-line": {
        EN: "Fixed output: `===text===` inside a line (a line with exactly two `===`).",
        ZH: "固定输出：行内的 `===文字===`（该行恰好有两个 `===`）。",
    },
    "hover.fixed.bang": {
        EN: "Fixed output: `!===text!===` inside a line.",
        ZH: "固定输出：行内的 `!===文字!===`。",
    },
    "hover.fixed.alone": {
        EN: "markdown-flow shows it as written, without the AI, so it is never translated.",
        ZH: "markdown-flow 不经过 AI，原样显示它，所以它不会被翻译。",
    },
    "hover.fixed.told": {
        EN: "markdown-flow tells the AI to output it as written, but when the course answers "
        "in the learner's language (AI-Shifu's `use_learner_language`) it tells the AI to "
        "translate it into that language.",
        ZH: "markdown-flow 让 AI 原样输出它；但当课程使用学员的语言（AI-Shifu 的 "
        "`use_learner_language`）时，会让 AI 把它翻译成那种语言。",
    },
    "hover.fixed.markers": {
        EN: "Markers and interactions inside it are read as everywhere else.",
        ZH: "其中的标记和交互照常读取。",
    },
    # An interaction that binds no key (tests/hosts).
    "hover.no-variable": {
        EN: "An interaction without a variable: the answer is stored nowhere. markdown-flow "
        "gives it to the conversation: the AI reads it as the learner's message in the "
        "prompts that follow, and no `{{...}}` can read it.",
        ZH: "没有变量的交互：回答不会保存到任何地方。markdown-flow 把它交给对话："
        "AI 在之后的提示词中把它当作学员的消息读取，任何 `{{...}}` 都读不到它。",
    },
    "hover.no-variable.plain": {
        EN: "An interaction without a variable: the answer is stored nowhere, and no "
        "`{{...}}` can read it.",
        ZH: "没有变量的交互：回答不会保存到任何地方，任何 `{{...}}` 都读不到它。",
    },
    # AI-Shifu's gate values (ai-shifu learn_funcs.py; tests/hosts).
    "hover.gate": {
        EN: "`${value}`: ${does}",
        ZH: "`${value}`：${does}",
    },
    "gate.pay": {
        EN: "AI-Shifu stops the lesson at this interaction until the learner has paid for "
        "the course, then goes on by itself.",
        ZH: "AI-Shifu 会在这个交互处暂停课程，直到学员购买课程后自动继续。",
    },
    "gate.login": {
        EN: "AI-Shifu stops the lesson at this interaction until the learner has logged in, "
        "then goes on by itself.",
        ZH: "AI-Shifu 会在这个交互处暂停课程，直到学员登录后自动继续。",
    },
    "hover.gate.unknown": {
        EN: "`${value}` is no AI-Shifu gate: only `_sys_pay` and `_sys_login`, written "
        "exactly so, gate the lesson. This button is an ordinary answer.",
        ZH: "`${value}` 不是 AI-Shifu 的关卡值：只有原样写出的 `_sys_pay` 和 `_sys_login` "
        "才会拦住课程。这个按钮只是普通回答。",
    },
    # -- code action titles
    "action.bind-with": {EN: "Bind with ${marker}", ZH: "改用 ${marker} 绑定"},
    "action.convert-legacy": {
        EN: "Convert legacy binding to ${marker}",
        ZH: "把旧写法绑定转换为 ${marker}",
    },
    "action.pad": {EN: "Pad marker to ${marker}", ZH: "把标记补齐空格为 ${marker}"},
    "action.page-rename": {
        EN: "Rename ${key} to ${new} in the whole course (stored answers stay under ${key})",
        ZH: "在整个课程中把 ${key} 改名为 ${new}（已存的回答仍在 ${key} 下）",
    },
    "action.page-form": {EN: "Write ${marker}", ZH: "改写为 ${marker}"},
    "action.replace-with": {EN: "Replace with ${marker}", ZH: "替换为 ${marker}"},
    "action.ask-for": {
        EN: "Ask for '${key}' in an interaction before its first use",
        ZH: "在首次使用前用交互提问“${key}”",
    },
    "action.merge": {
        EN: "Merge key '${key}' into '${target}'",
        ZH: "把键“${key}”合并到“${target}”",
    },
    "action.convert-legacy-document": {
        EN: "Convert every legacy binding in this document to {{ key }}",
        ZH: "把本文档中所有旧写法绑定转换为 {{ key }}",
    },
    "action.pad-document": {
        EN: "Pad every marker in this document to {{ key }}",
        ZH: "把本文档中所有标记补齐空格为 {{ key }}",
    },
    "action.convert-legacy-course": {
        EN: "Convert every legacy binding in this course to {{ key }}",
        ZH: "把本课程中所有旧写法绑定转换为 {{ key }}",
    },
    "action.pad-course": {
        EN: "Pad every marker in this course to {{ key }}",
        ZH: "把本课程中所有标记补齐空格为 {{ key }}",
    },
    # Suppression comments (`features/suppressions.py`).
    "action.ignore-here": {
        EN: "Ignore this problem here (${code})",
        ZH: "在这里忽略这个问题（${code}）",
    },
    "action.remove-suppression": {
        EN: "Remove the unused suppression",
        ZH: "删掉没有用的屏蔽注释",
    },
    "part.suppressed.any": {EN: "problem", ZH: "问题"},
    "part.suppressed.it": {EN: "it", ZH: "它"},
}
_MESSAGES.update((_id, dict(_texts)) for _id, _texts in DIAGNOSTIC_MESSAGES.items())
_MESSAGES.update((_id, dict(_texts)) for _id, _texts in INLAY_HINT_MESSAGES.items())
for _id, _english in CONFIG_MESSAGES.items():
    _MESSAGES[_id][EN] = _english

MESSAGES: Final[Mapping[str, Mapping[str, str]]] = _MESSAGES
"""Message id -> language -> template."""

_ARGUMENT: Final = re.compile(r"\$\{(\w+)\}")


def _pieces(template: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`template` as its literal parts and the argument names between them, joined at
    render time (several times faster than `Template.substitute` or `str.format` on
    these long texts); `Template` still checks that it is well formed."""
    names = tuple(_ARGUMENT.findall(template))
    Template(template).substitute(dict.fromkeys(names, ""))
    return tuple(_ARGUMENT.split(template)[::2]), names


_PIECES: Final = {
    language: {id_: _pieces(texts[language]) for id_, texts in _MESSAGES.items()}
    for language in LANGUAGES
}


def say(language: str, message_id: str, **args: object) -> str:
    """Message `message_id` in `language` (English for one the catalog lacks)."""
    literals, names = (_PIECES.get(language) or _PIECES[EN])[message_id]
    if not names:
        return literals[0]
    if len(names) == 1:  # the most frequent case, at f-string speed
        return f"{literals[0]}{args[names[0]]}{literals[1]}"
    out = [literals[0]]
    for name, literal in zip(names, literals[1:]):  # noqa: B905 (one more literal)
        out.append(f"{args[name]}")
        out.append(literal)
    return "".join(out)


def counted(language: str, message_id: str, count: int) -> str:
    """`message_id.one` for a count of 1, else `message_id.other`."""
    return say(language, f"{message_id}.{'one' if count == 1 else 'other'}", count=count)
