"""Every message of mfls in Simplified Chinese (zh-CN), by the message ids of `en.py`, with
the same arguments."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from mfls.workspace import diagnostic_registry as codes

ZH_MESSAGES: Final[Mapping[str, str]] = {
    # -- diagnostics: marker-empty
    codes.MARKER_EMPTY: (
        "这个记忆标记里没有问题，所以只是普通文本。请在花括号之间写上问题，例如 `{{ 你想学什么"
        "？ }}`。"
    ),
    # -- diagnostics: marker-line-break
    codes.MARKER_LINE_BREAK_RUNS_ON: (
        "这个标记可能缺少 `}}`：请在问题结束处把它闭合。它${runs_on}，所以整个标记只是普通文本"
        "。把这几行合并只会得到一个又长又错的问题。"
    ),
    codes.MARKER_LINE_BREAK: (
        "这个问题被拆成了多行，所以标记只是普通文本。记忆标记中的问题必须写在同一行内。请把这几"
        "行合并。"
    ),
    # -- diagnostics: marker-control-character
    codes.MARKER_CONTROL_CHARACTER: (
        "这个问题里有一个不可见的控制字符${which}。它让整个标记变成了普通文本。请删除这个字符。"
    ),
    # -- diagnostics: marker-unclosed
    codes.MARKER_UNCLOSED: (
        "这个 `{{` 在本段中没有对应的 `}}`。从它开始直到段落结尾都是普通文本。${hides}请用 "
        "`}}` 闭合这个标记。"
    ),
    # -- diagnostics: legacy-binding
    codes.LEGACY_BINDING: (
        "`%{{...}}` 是旧的绑定写法：请改为 `{{ ${bare} }}`。两种写法绑定的是同一个问题。"
        "markdown-flow 0.3.1、0.3.4 和 0.4.2 只认 `%{{...}}` 绑定：由它们运行的课程应保留旧写法"
        "（在 mfcourse.toml 中设置 `target`）。"
    ),
    # -- diagnostics: unbound-reference
    codes.UNBOUND_REFERENCE: (
        "没有任何课时提问${short}，AI 可能读不到回答。平台也不提供它。请在交互中绑定它（"
        "`?[${binding} ...]`），或者告诉 AI 去询问用户，或使用事先说明的默认值。"
    ),
    codes.UNBOUND_REFERENCE_PAGE: (
        "没有任何课时提问${short}，AI 可能读不到回答。平台也不提供它，而学员页面读不了这个键的"
        "任何绑定：请把它改名为页面能读的键（例如 `${readable}`），再在交互中绑定它（"
        "`?[${binding} ...]`），或者告诉 AI 去询问用户，或使用事先说明的默认值。"
    ),
    # -- diagnostics: read-before-asked
    codes.READ_BEFORE_ASKED: (
        "${short}在提问之前就被读取了。按课程顺序，这个问题${where}才首次绑定。请提前提问，或者"
        "告诉 AI 在还没有回答时该怎么做。"
    ),
    # -- diagnostics: near-miss
    codes.NEAR_MISS: (
        "本课程没有绑定这个问题；你是不是想写${near}？${near_full}${how}；${quoted}与它只差在"
        "${difference}，但文字不同就是不同的问题。"
    ),
    # -- diagnostics: binding-in-reference
    codes.BINDING_IN_REFERENCE: (
        "这里的绑定没有保存回答的权限：请在课时中绑定这个问题。这是一个参考文档（见 "
        "mfcourse.toml 中的 `references`），所以不会把回答保存到${quoted}。"
    ),
    # -- diagnostics: reserved-key-binding
    codes.RESERVED_KEY_BINDING_PROVIDED: (
        "${short}是只读的：它由平台提供。${quoted}由 ${host} 提供，交互无法保存对它的回答：请换"
        "一个问题文字，或者只读取这个值而不绑定它。"
    ),
    codes.RESERVED_KEY_BINDING_PREFIX: (
        "以 `${prefix}` 开头的问题由 ${host} 保留。平台不接受绑定${quoted}：请换一个问题文字。"
    ),
    # -- diagnostics: legacy-profile-key
    codes.LEGACY_PROFILE_KEY: (
        "${profile}是旧版学员画像键：这里请保留 `%{{...}}`。${host} 仍接受对其旧版学员画像键（"
        "${keys}）的 `%{{...}}` 绑定，但拒绝其他以 `${prefix}` 开头的问题的绑定。不要把它改成 "
        "`{{ ${key} }}`：那种写法正属于被拒绝的绑定，会报错。"
    ),
    # -- diagnostics: empty-interaction
    codes.EMPTY_INTERACTION: (
        "这个交互既没有选项，也没有 `...` 输入框。markdown-flow 0.4.2 会把 `?[{{ ${key} }}]` 显"
        "示为一个按钮，按钮文字是${quoted}的值（未设置时为 UNKNOWN），而且不保存任何回答。请添"
        "加选项（`A | B`），或用 `...` 提供文本输入。"
    ),
    codes.EMPTY_INTERACTION_LEGACY: (
        "这个交互既没有选项，也没有 `...` 输入框。markdown-flow 0.4.2 会把 `?[%{{ ${key} }}]` "
        "显示为一个提示为空的文本输入框；如果这正是你的本意，请明确写成 `?[${binding} ...]`。"
    ),
    # -- diagnostics: runtime-binding-ignored
    codes.RUNTIME_BINDING_IGNORED: (
        "${runtime} 不会在这里保存回答：请写成 `${binding}`。它只认 `%{{...}}` 绑定：不会把回答"
        "保存到${quoted}，还会把这个标记当作第一个按钮文字的一部分显示出来。"
    ),
    codes.RUNTIME_BINDING_IGNORED_POSITION: (
        "${runtime} 不会在这里保存回答：请把 `%{{` 紧接在 `?[` 之后。只有交互以 `%{{` 开头时它"
        "才绑定回答；这里它不会把回答保存到${quoted}，而是把标记显示为按钮文字。"
    ),
    # -- diagnostics: runtime-key-differs
    codes.RUNTIME_KEY_DIFFERS: (
        "${runtime} 读不到这个标记：它的键里含有 `}`。它在第一个 `}` 处就结束键名，所以既不会替"
        "换也不会绑定${quoted}；请把 `}` 从键中去掉。"
    ),
    # -- diagnostics: fixed-output-unclosed
    codes.FIXED_OUTPUT_UNCLOSED: (
        "这段 `!===` 固定输出没有闭合：请加一行 `!===`。在本块结束之前没有 `!===` 行闭合它，所"
        "以 markdown-flow 会把整个块（连同 `!===`）当作普通提示词发给 AI。"
    ),
    # -- diagnostics: unknown-gate-value
    codes.UNKNOWN_GATE_VALUE: (
        "${short} 不会拦住课程：请写成 `_sys_pay` 或 `_sys_login`。只有按钮的值原样等于其中之一"
        "时，AI-Shifu 才会暂停课程等待付费或登录；这个按钮只是普通回答。"
    ),
    # -- diagnostics: page-unreadable-binding
    codes.PAGE_UNREADABLE_BINDING: (
        "学员页面读不到${short}的绑定。在 ${shown}。页面读不了这个键的任何写法：请在整个课程中"
        "把它改名为页面能读的键，例如 `${readable}`。已经存在${quoted}下的回答仍留在原来的键下"
        "。"
    ),
    codes.PAGE_UNREADABLE_BINDING_FORM: (
        "学员页面读不到这样写的${short}绑定。在 ${shown}。所有目标页面版本都能读 `${binding}`："
        "请改成这样写。"
    ),
    codes.PAGE_UNREADABLE_BINDING_LINE: (
        "学员页面读不了这一行里${short}的绑定。在 ${shown}。页面在别处能读这个键：是这一行被它"
        "读成了别的样子。"
    ),
    # -- diagnostics: page-reads-otherwise
    codes.PAGE_READS_OTHERWISE: (
        "学员页面显示这个交互的方式与 ${runtime} 不同。在 ${shown}；${runtime} 读到的是"
        "${reads}。${causes}"
    ),
    # -- diagnostics: unused-suppression
    codes.UNUSED_SUPPRESSION: (
        "这条屏蔽注释没有屏蔽任何问题。在它作用的地方 mfls 没有报告${codes}：请删掉${them}，否"
        "则它会藏起以后写在那里的问题。"
    ),
    codes.UNUSED_SUPPRESSION_UNKNOWN: (
        "这条屏蔽注释写了 mfls 没有的诊断代码。${codes} 什么也屏蔽不了：请写 `mfls check` 输出"
        "的代码，或删掉它。"
    ),
    # -- config
    "config.unreadable": "课程文件无法读取。所有设置暂用默认值。",
    "config.invalid-toml": (
        "课程文件不是有效的 TOML。修好之前所有设置都用默认值。TOML 解析器报告：${reason}。"
    ),
    "config.unknown-setting": "未知设置 `${key}`，已忽略。课程文件支持的设置有：${known}。",
    "config.name-type": "`name` 必须是字符串，已忽略。",
    "config.host-value": "`host` 的值无效，按通用平台处理。它必须是以下之一：${choices}。",
    "config.target-value": (
        "`target` 的值无效，使用平台的默认目标。`target` 必须是以下之一：${choices}。"
    ),
    "config.page-value": (
        "`page` 不是 mfls 检查的学员页面版本，按所有检查的版本处理。`page` 必须是以下之一或它们"
        "的列表：${choices}。"
    ),
    "config.list-type": "`${key}` 必须是字符串列表，已忽略。",
    "config.diagnostics-type": "`diagnostics` 必须是“代码 = 严重级别”的表，已忽略。",
    "config.unknown-code": "未知的诊断代码 `${code}`，已忽略。",
    "config.severity-value": (
        "`${code}` 的严重级别无效，使用默认级别。它必须是以下之一：${choices}。"
    ),
    # -- structure
    "structure.unreadable": (
        "structure.json 无法读取（${reason}）；在此之前课时按编号顺序取 `lessons/lesson-*.md`。"
    ),
    "structure.invalid-json": (
        "structure.json 不是有效的 JSON：${reason}。修好之前课时按编号顺序取 "
        "`lessons/lesson-*.md`。"
    ),
    "structure.shape": "${what}：课程工具在这里读取 ${expected}；这一部分已忽略。",
    "structure.missing-file": (
        'lessons/ 里没有 `${file}`：这个课时不在课程中。课程工具的 `build` 也会跳过它（"file '
        'not found"）。'
    ),
    "structure.outside": (
        "`${file}` 不是 lessons/ 里的文件：课程工具会拒绝它，mfls 也不读取课程文件夹以外的内容。"
    ),
    "structure.duplicate": (
        "`${file}` 第二次出现：它只在第一次列出的位置运行一次。课程工具的 `build` 会把它做成第"
        "二个课时。"
    ),
    # -- config
    "config.document-limit": (
        "课程超过文档数上限，检查不完整。它的文件夹只列出了 ${limit} 个文件，之后的文件未计入课程。"
    ),
    "config.file-limit": (
        "课程中的一个文件超过大小上限，未计入课程，检查不完整。`${path}` 大于 ${limit} 字节，其"
        "中的绑定不计。"
    ),
    # -- part
    "part.runs-on.marker": "一直延伸到下一个标记，在那个标记的 `}}` 处才结束",
    "part.runs-on.interaction": "一直延伸进一个交互，在后面的某个 `}}` 处才结束",
    "part.runs-on.lines": "跨越 ${count} 行，直到后面的某个 `}}`",
    "part.which-character": "（${code}）",
    "part.hides.one": "它遮住了后面写的${what}。",
    "part.hides.both": "它遮住了后面写的${markers}和${interactions}。",
    "part.count.markers.one": " 1 个记忆标记",
    "part.count.markers.other": " ${count} 个记忆标记",
    "part.count.interactions.one": " 1 个交互",
    "part.count.interactions.other": " ${count} 个交互",
    "part.where.later": "在本课时的后文",
    "part.where.in": "在 ${label} 中",
    "part.near.bound": "已绑定",
    "part.near.provided": "由平台提供",
    "part.differs.letters.one": " 1 个字符（忽略大小写、空白和标点之后）",
    "part.differs.letters.other": " ${count} 个字符（忽略大小写、空白和标点之后）",
    "part.differs.spacing": "空白",
    "part.differs.case": "大小写",
    "part.differs.nfkc": " Unicode 形式（NFKC）",
    "part.differs.any": "空白、大小写、Unicode 形式或标点",
    "part.page.on": "${page} 上，学员看到${what}",
    "part.page.raw": "整行原样显示的文本，没有可点击或输入的地方",
    "part.page.marker-buttons": "不绑定任何键的按钮，第一个按钮的文字里带着这个标记",
    "part.page.buttons": "按钮 ${labels}",
    "part.page.button": "唯一的按钮 ${labels}",
    "part.page.check-boxes": "多选框 ${labels}",
    "part.page.valued": "${label}（保存 ${value}）",
    "part.page.input": "文本输入框 ${hint}",
    "part.page.nothing": "没有可回答的内容",
    "part.page.and": "和",
    "part.page.cause.escape": "页面读这一行之前，Markdown 已去掉标点前的反斜杠：页面不认转义。",
    "part.page.cause.full-width": "remark-flow 1.0.0-alpha.7 还会在全角 `｜` 处拆分选项。",
    "part.page.cause.multiple": "remark-flow 1.0.0-alpha.7 不支持多选。",
    "part.page.cause.multiple-unbound": "页面只在绑定之后才提供多选。",
    "part.page.cause.input": "页面只在绑定之后才把 `...` 读作文本输入框。",
    # -- related
    "related.lesson-binds": "某个课时在这里绑定了它",
    "related.first-bound": "在这里首次绑定",
    "related.near-bound": "${quoted}在这里绑定",
    # -- hover
    "hover.not-marker": "**不是记忆标记**：${why}",
    "hover.why.empty": "它没有写问题：去掉两侧空白后，花括号之间什么也没有。",
    "hover.why.line-break": "它的问题被拆成了多行；问题必须写在同一行内。",
    "hover.why.control-character": "它的问题里有一个不可见的控制字符。",
    "hover.why.unclosed": "本段中没有 `}}` 闭合它，所以段落的其余部分都变成了普通文本。",
    "hover.why.runs-on": "它可能缺少 `}}`：它${runs_on}。",
    "hover.hides.one": "它遮住了后面写的${what}。",
    "hover.hides.both": "它遮住了后面写的${markers}和${interactions}。",
    "hover.plain-text": "AI 把它当作普通文本读取。",
    "hover.context.code-span": "行内代码",
    "hover.context.math": "行内公式",
    "hover.context.link-destination": "链接地址",
    "hover.context.link-title": "链接标题",
    "hover.context.link-label": "链接标签",
    "hover.context.link-definition": "链接引用定义",
    "hover.context.autolink": "自动链接",
    "hover.context.html-tag": " HTML 标签",
    "hover.context.html-comment": " HTML 注释",
    "hover.context.html-block": "原始 HTML 块",
    "hover.context.info-string": "代码块的信息字符串",
    "hover.context.literal": "字面上下文",
    "hover.dropped.html-comment": "markdown-flow 会在 AI 看到文本之前删除注释",
    "hover.dropped.info-string": "markdown-flow 会原样保留围栏代码块，包括它的信息字符串",
    "hover.literal.substituted": (
        "位于${where}中的**引用**：${runtime} 在这里同样会替换它，所以它和其他引用一样受检查。"
    ),
    "hover.literal.checked": "位于${where}中的**引用**：和其他引用一样受检查。",
    "hover.literal.dropped-because": (
        "位于${where}中的**引用**：${why}，所以在 ${host} 上它永远不会被替换。它不会引发课程诊断。"
    ),
    "hover.literal.dropped": (
        "位于${where}中的**引用**，在 ${host} 上永远不会被替换。它不会引发课程诊断。"
    ),
    "hover.binding": "**绑定**${legacy}：这个交互会把用户对这个问题的回答保存下来。",
    "hover.binding.ignored": (
        "**在 ${runtime} 上不是绑定**：这个交互在那里不会保存回答，而是把这个标记当作第一个按钮"
        "文字的一部分显示出来（见其诊断）。"
    ),
    "hover.binding.reserved": (
        "平台保留的键的**绑定**${legacy}：平台会拒绝它，这个交互不会保存回答（见其诊断）。"
    ),
    "hover.binding.in-reference": "参考文档中的**绑定**${legacy}：它没有保存回答的权限。",
    "hover.legacy-form": "（旧的 `%{{...}}` 写法）",
    "hover.reference": "**引用**：AI 会读取这个问题已记住的回答。",
    "hover.look-closely": "请仔细看：",
    "hover.note.spaces": "第 ${at} 个字符处有 ${count} 个连续空格",
    "hover.note.character": "第 ${at} 个字符是 ${code} ${name}",
    "hover.asked": "提问方式：${asked}。",
    "hover.asked.choices": "选项 ${choices}",
    "hover.asked.input": "自由输入",
    "hover.asked.separator": "；",
    "hover.list-separator": "、",
    "hover.bound-in": "绑定位置：${places}。",
    "hover.bound-in.more": "绑定位置：${places}，另有 ${more} 处。",
    "hover.bound-in-references": (
        "没有任何课时绑定它：只在参考文档中绑定（${places}），参考文档不会保存回答。"
    ),
    "hover.bound-in-references.more": (
        "没有任何课时绑定它：只在参考文档中绑定（${places}，另有 ${more} 处），参考文档不会保存"
        "回答。"
    ),
    "hover.not-bound": "本课程中没有任何地方绑定它。",
    # -- lens
    "lens.unread": "在此提问 · 尚未被读取",
    "lens.read": "在此提问 · 在${where}中读取${times}",
    "lens.times.one": " 1 次",
    "lens.times.other": " ${count} 次",
    "lens.lessons.one": " 1 个课时",
    "lens.lessons.other": " ${count} 个课时",
    "lens.documents.one": " 1 个文档",
    "lens.documents.other": " ${count} 个文档",
    # -- rename
    "rename.stored-answers": (
        "已保存的回答仍留在旧键“${old}”下。平台按键保存回答且不会迁移：之前回答过的学员会被重新"
        "询问“${new}”，否则课时会退回到其中写明的默认内容。"
    ),
    "rename.not-in-course": "此文档还不属于任何已索引的课程。",
    "rename.invalid-marker": (
        "这个标记无效（${reason}）：它是普通文字，不是记忆键，所以没有可重命名的内容。请先修正这个标记。"
    ),
    "rename.in-code": "代码块中的标记只是示例，不是记忆：它们永远不会被重命名。",
    "rename.no-marker": "这里没有记忆标记：把光标放在某个 {{ key }} 上即可重命名该键。",
    "rename.system-key": (
        "“${key}”是课程文件中列出的系统键（system-keys）：请在课程文件和平台中重命名它，而不是在课时中。"
    ),
    "rename.host-key": "“${key}”由平台（${host}）提供：它的名称不由课程决定。",
    "rename.name.empty": "去掉首尾空白后，新名称为空。",
    "rename.name.line-break": (
        "新名称包含换行符（U+000A、U+000D、U+0085、U+2028 或 U+2029）：键必须写在一行内。"
    ),
    "rename.name.control-character": (
        "新名称包含控制字符（U+0000-U+001F 或 U+007F-U+009F），键不能包含它。"
    ),
    "rename.name.not-utf8": ("新名称包含单独的代理码位，UTF-8 无法编码：这样的键无法写入文档。"),
    "rename.name.closing-sequence": "新名称包含 '}}'，它总会结束标记：这样的键无法写入。",
    "rename.name.invalid": "新名称无效（${problem}）。",
    "rename.name.reserved-prefix": (
        "新名称以“${prefix}”开头，该前缀由平台（${host}）保留给自己的键。"
    ),
    "rename.name.host-key": "“${key}”由平台提供：课程中的键不能使用这个名称。",
    "rename.unused": "课程中没有任何文档使用键“${key}”。",
    "rename.conflict": (
        "“${new}”已是本课程的键，用于 ${uses}。重命名会合并两个问题的记忆；如果确实要这样做，"
        "请使用代码操作“把键“${old}”合并到“${new}””。"
    ),
    "rename.uses.more": "另有 ${count} 处",
    "rename.label": "把记忆键“${old}”重命名为“${new}”",
    "rename.description": (
        "已保存在“${old}”下的回答不会随之迁移：平台按键保存回答且不会迁移，之前回答过的学员会被"
        "重新询问，否则课时会退回到其中写明的默认内容。"
    ),
    "rename.merge.label": "把“${old}”合并到“${new}”",
    "rename.merge.description": (
        "已保存在“${old}”下的回答不会随之迁移：平台按键保存回答且不会迁移。课时将改为读取保存在"
        "“${new}”下的回答。"
    ),
    # -- course key table (Markdown)
    "map.not-in-course": "此文档还不属于任何已索引的课程。",
    "map.table.title": "# 课程键：${course}",
    "map.table.header": "| 问题 | 提问位置 | 读取 | 诊断 |",
    "map.table.line": "${lesson}（第 ${line} 行）",
    "map.table.host": "（平台）",
    "map.table.did-you-mean": "（是否想写“${key}”）",
    "map.table.reads": "${reads} 次，在${lessons}中",
    "map.table.lessons.one": " 1 个课时",
    "map.table.lessons.other": " ${count} 个课时",
    "map.table.references.one": "，另有 1 个参考文档",
    "map.table.references.other": "，另有 ${count} 个参考文档",
    # -- hover
    "hover.read": "在课程“${course}”的${documents}中读取了${times}。",
    "hover.times.one": " 1 次",
    "hover.times.other": " ${count} 次",
    "hover.documents.one": " 1 个文档",
    "hover.documents.other": " ${count} 个文档",
    "hover.not-read": "课程“${course}”中没有任何地方读取它。",
    "hover.legacy-profile": "旧版学员画像键：${host} 仍接受它的 `%{{...}}` 绑定。",
    "hover.provided": "由 ${host} 提供（只读）。",
    "hover.prefix": "前缀 `${prefix}` 由 ${host} 保留。",
    "hover.fixed-block": (
        "位于固定输出中：markdown-flow 不经过 AI，原样显示这个块，但仍会把标记替换为回答。"
    ),
    "hover.fixed-span": (
        "位于固定输出中：markdown-flow 让 AI 原样输出这段文字，但仍会把标记替换为回答。"
    ),
    "hover.fixed.line": "固定输出：一行 `===文字===`。",
    "hover.fixed.fence": "固定输出：两行 `!===` 之间的内容。",
    "hover.fixed.in-line": "固定输出：行内的 `===文字===`（该行恰好有两个 `===`）。",
    "hover.fixed.bang": "固定输出：行内的 `!===文字!===`。",
    "hover.fixed.alone": "markdown-flow 不经过 AI，原样显示它，所以它不会被翻译。",
    "hover.fixed.told": (
        "markdown-flow 让 AI 原样输出它；但当课程使用学员的语言（AI-Shifu 的 "
        "`use_learner_language`）时，会让 AI 把它翻译成那种语言。"
    ),
    "hover.fixed.markers": "其中的标记和交互照常读取。",
    "hover.no-variable": (
        "没有变量的交互：回答不会保存到任何地方。markdown-flow 把它交给对话：AI 在之后的提示词"
        "中把它当作学员的消息读取，任何 `{{...}}` 都读不到它。"
    ),
    "hover.no-variable.plain": (
        "没有变量的交互：回答不会保存到任何地方，任何 `{{...}}` 都读不到它。"
    ),
    "hover.gate": "`${value}`：${does}",
    # -- gate
    "gate.pay": "AI-Shifu 会在这个交互处暂停课程，直到学员购买课程后自动继续。",
    "gate.login": "AI-Shifu 会在这个交互处暂停课程，直到学员登录后自动继续。",
    # -- hover
    "hover.gate.unknown": (
        "`${value}` 不是 AI-Shifu 的关卡值：只有原样写出的 `_sys_pay` 和 `_sys_login` 才会拦住"
        "课程。这个按钮只是普通回答。"
    ),
    # -- action
    "action.bind-with": "改用 ${marker} 绑定",
    "action.convert-legacy": "把旧写法绑定转换为 ${marker}",
    "action.pad": "把标记补齐空格为 ${marker}",
    "action.page-rename": "在整个课程中把 ${key} 改名为 ${new}（已存的回答仍在 ${key} 下）",
    "action.page-form": "改写为 ${marker}",
    "action.replace-with": "替换为 ${marker}",
    "action.ask-for": "在首次使用前用交互提问“${key}”",
    "action.merge": "把键“${key}”合并到“${target}”",
    "action.convert-legacy-document": "把本文档中所有旧写法绑定转换为 {{ key }}",
    "action.pad-document": "把本文档中所有标记补齐空格为 {{ key }}",
    "action.convert-legacy-course": "把本课程中所有旧写法绑定转换为 {{ key }}",
    "action.pad-course": "把本课程中所有标记补齐空格为 {{ key }}",
    "action.ignore-here": "在这里忽略这个问题（${code}）",
    "action.remove-suppression": "删掉没有用的屏蔽注释",
    # -- part
    "part.suppressed.any": "问题",
    "part.suppressed.it": "它",
    # -- inlay
    "inlay.asked-in": "提问于 ${lesson}",
    "inlay.asked-in.with": "提问于 ${lesson}：${asked}",
    "inlay.provided": "由 ${host} 提供",
    "inlay.read": "在${where}中读取",
    "inlay.unread": "尚未被读取",
    # -- completion: an item's detail and doubt
    "completion.read.one": "读取 1 次",
    "completion.read.other": "读取 ${count} 次",
    "completion.provided": "由 ${host} 提供 · ${read}",
    "completion.not-bound": "本课程中没有绑定 · ${read}",
    "completion.bound-in": "绑定于 ${where}",
    "completion.bound-in.more": "绑定于 ${where}，另有 ${more} 处",
    "completion.bound-in-reference": "只在参考文档 ${where} 中绑定 · ${read}",
    "completion.bound-in-reference.more": (
        "只在参考文档 ${where} 中绑定，另有 ${more} 处 · ${read}"
    ),
    "completion.reserved": "${prefix} 是 ${host} 保留的前缀",
    "completion.doubt.never-asked": "从未提问",
    "completion.doubt.reference-only": "仅在参考文档中",
    "completion.doubt.reserved-prefix": "保留前缀 ${prefix}",
    "completion.doubt.typo-of": "可能是“${key}”的笔误？",
    "completion.gate": "AI-Shifu 门控值",
    # -- the map's legend: what each kind of place means
    "legend.asked": "在这里提问：交互会保存回答",
    "legend.read": "在这里读取，已在之前提问",
    "legend.read-before-asked": "在这里读取，但还没有任何课时提问过它",
    "legend.unbound": "读取了，但没有任何课时提问它",
    "legend.near-miss": "读取了，但只提问过一个相似的问题（是不是想写……？）",
    "legend.reserved": "提问了，但平台保留了这个键",
    "legend.legacy-profile": "以平台对这个用户画像键仍接受的旧 %{{...}} 写法提问",
    "legend.provided": "读取；值由平台提供",
    "legend.reference-binding": "在参考文档中提问：不会保存回答",
    # -- mfls.courseInfo
    "course-info.no-course": "这个文件不属于任何 MarkdownFlow 课程。",
}
