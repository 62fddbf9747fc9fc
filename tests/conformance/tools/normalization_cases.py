"""Normalization cases: a marker body and the key or reason it must give."""

from __future__ import annotations

from casegen import CaseBook

TRIM_SENTENCE = (
    'Spec: "Trimming uses this explicit cross-language whitespace set: U+0009-U+000D, '
    "U+001C-U+0020, U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028-U+2029, U+202F, U+205F "
    'and U+3000."'
)
PRESERVE_SENTENCE = (
    'Spec: "Preserve the remaining text exactly, including internal spaces, repeated spaces, '
    'punctuation, Unicode, emoji, brackets, quotes and backslashes." and "never collapse '
    'interior whitespace."'
)
CONTROL_SENTENCE = (
    'Spec: "The normalized name must not contain control characters (U+0000-U+001F or '
    'U+007F-U+009F), U+2028, U+2029"; syntax.md rule 6 gives the reason codes.'
)

WHITESPACE = [
    *(0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x85, 0xA0, 0x1680),
    *range(0x2000, 0x200B),
    *(0x2028, 0x2029, 0x202F, 0x205F, 0x3000),
]
LINE_BREAKS = frozenset({0x0A, 0x0D, 0x85, 0x2028, 0x2029})


def _is_control(code: int) -> bool:
    return code <= 0x1F or 0x7F <= code <= 0x9F


def _interior_reason(code: int) -> str | None:
    if code in LINE_BREAKS:
        return "line-break"
    if _is_control(code):
        return "control-character"
    return None


def build() -> CaseBook:
    book = CaseBook("normalization")
    _seed_table(book)
    _seed_sentences(book)
    _whitespace_members(book)
    _control_characters(book)
    _reason_precedence(book)
    _unicode_and_lengths(book)
    return book


def _seed_table(book: CaseBook) -> None:
    table = 'Spec examples table: "'
    book.norm(
        "table-user-name-underscore",
        table + '{{user_name}} | user_name"',
        "user_name",
        key="user_name",
    )
    book.norm("table-padded-name", table + '{{ name }} | name"', " name ", key="name")
    book.norm(
        "table-internal-space", table + '{{user name}} | user name"', "user name", key="user name"
    )
    book.norm(
        "table-two-internal-spaces",
        table + '{{user  name}} | user  name (two internal spaces)"; syntax.md rule 27.',
        "user  name",
        key="user  name",
    )
    book.norm(
        "table-question",
        table + '{{What is your gender?}} | What is your gender?"',
        "What is your gender?",
        key="What is your gender?",
    )
    book.norm("table-emoji", table + '{{🚀 rocket}} | 🚀 rocket"', "🚀 rocket", key="🚀 rocket")
    book.norm("table-braces-inside", table + '{{a{b}c}} | a{b}c"', "a{b}c", key="a{b}c")
    book.norm("table-trailing-brace", table + '{{ a} }} | a}"', " a} ", key="a}")
    book.norm(
        "table-no-nesting",
        table + '{{outer{{inner}} | outer{{inner (no nesting)"',
        "outer{{inner",
        key="outer{{inner",
    )
    book.norm(
        "empty-body",
        'Spec: "{{}} and {{ }} are invalid because the normalized name is empty."',
        "",
        reason="empty",
    )
    book.norm(
        "space-only-body",
        'Spec: "{{}} and {{ }} are invalid because the normalized name is empty."',
        " ",
        reason="empty",
    )


def _seed_sentences(book: CaseBook) -> None:
    book.norm(
        "quoted-name-keeps-quotes",
        'Spec: "{{"name"}} reads the key "name", including its quotes"',
        '"name"',
        key='"name"',
    )
    book.norm(
        "single-quotes-kept",
        'Spec: "Quotes do not introduce a quoted-name syntax"',
        " 'name' ",
        key="'name'",
    )
    book.norm(
        "trailing-backslash-kept",
        'Spec: "{{path\\}} reads the key ending in a backslash"; syntax.md rule 5.',
        "path\\",
        key="path\\",
    )
    book.norm(
        "backslash-escape-not-decoded",
        'Spec: "backslashes do not introduce escapes inside a name"',
        "a\\{b\\}\\n",
        key="a\\{b\\}\\n",
    )
    book.norm(
        "index-not-evaluated",
        'Spec: "{{name[0]}} and {{user.name}} read literal keys"',
        "name[0]",
        key="name[0]",
    )
    book.norm(
        "property-not-evaluated",
        'Spec: "{{name[0]}} and {{user.name}} read literal keys"',
        "user.name",
        key="user.name",
    )
    book.norm(
        "seed-memory-question",
        'Spec: "{{ What would you like to learn? }}"',
        " What would you like to learn? ",
        key="What would you like to learn?",
    )
    book.norm(
        "seed-which-path-key",
        'Spec: "Both markers use the exact key Which [path] | level//hint...?"',
        " Which [path] | level//hint...? ",
        key="Which [path] | level//hint...?",
    )
    book.norm(
        "seed-key-with-interaction-text",
        'Spec: "{{ key ?[A|B] }} is one memory marker, not an interaction."',
        " key ?[A|B] ",
        key="key ?[A|B]",
    )
    book.norm(
        "seed-practice-skills",
        'Spec: "{{ Which skills would you like to practice? }}"',
        " Which skills would you like to practice? ",
        key="Which skills would you like to practice?",
    )
    book.norm("case-sensitive-upper", 'Spec: "Names are case-sensitive"', "Name", key="Name")
    book.norm(
        "case-sensitive-mixed", 'Spec: "Names are case-sensitive"', "uSeR_NaMe", key="uSeR_NaMe"
    )
    book.norm(
        "name-left-padded",
        'Spec: "{{name}}, {{ name}} and {{ name }} are equivalent."',
        " name",
        key="name",
    )
    book.norm(
        "name-right-padded",
        'Spec: "{{name}}, {{ name}} and {{ name }} are equivalent."',
        "name ",
        key="name",
    )
    book.norm(
        "sys-prefix-is-ordinary-key",
        'Spec: the sys_ reservation is a host rule ("rejects question bindings beginning '
        'with it"), not a grammar rule.',
        "sys_name",
        key="sys_name",
    )
    book.norm(
        "punctuation-kept",
        'Spec: "Existing punctuation, quote and backslash keys are not decoded or renamed."',
        " a-b.c,d;e:f!g ",
        key="a-b.c,d;e:f!g",
    )
    book.norm(
        "html-in-key",
        'Spec: "a recognized marker takes priority over Markdown-looking '
        'characters inside its own body, including backticks, HTML"',
        " <b>bold</b> ",
        key="<b>bold</b>",
    )
    book.norm(
        "backticks-in-key",
        'Spec: "a recognized marker takes priority over '
        'Markdown-looking characters inside its own body, including backticks"',
        " `code` ",
        key="`code`",
    )
    book.norm(
        "single-closing-brace-only",
        'Spec: "This also preserves a name ending in a single } without introducing escapes."',
        " } ",
        key="}",
    )
    book.norm(
        "opening-brace-leading",
        "syntax.md rule 5: `{{{a}}}` is key `{a` then text `}`.",
        "{a",
        key="{a",
    )
    book.norm(
        "percent-in-key",
        "syntax.md rule 14: only `%{{` before a binding is legacy; a "
        "`%` inside the body is key text.",
        "%name",
        key="%name",
    )
    book.norm(
        "markdown-emphasis-kept",
        'Spec: "Preserve the remaining text exactly"',
        " *emphasis* _and_ [link](x) ",
        key="*emphasis* _and_ [link](x)",
    )
    book.norm(
        "dollar-signs-kept", 'Spec: "Preserve the remaining text exactly"', " $x$ ", key="$x$"
    )
    book.norm(
        "interior-tab-is-control",
        "syntax.md rule 6: U+0009 is trimmed at the edges but is a control character "
        "in the interior.",
        "a\tb",
        reason="control-character",
    )
    book.norm(
        "edge-line-breaks-padding",
        "syntax.md rule 7: line breaks inside a marker are fine as edge padding.",
        "\n key \n",
        key="key",
    )
    book.norm(
        "edge-crlf-padding",
        "syntax.md rule 7 with syntax.md rule 1: CRLF is a line ending, fine as edge padding.",
        "\r\n key \r\n",
        key="key",
    )
    book.norm("mixed-whitespace-padding", TRIM_SENTENCE, " \t\u3000\u00a0key\u2003 \t", key="key")


def _whitespace_members(book: CaseBook) -> None:
    for code in WHITESPACE:
        ch = chr(code)
        tag = f"u{code:04x}"
        book.norm(
            f"ws-{tag}-leading",
            f"{TRIM_SENTENCE} Leading U+{code:04X} is trimmed.",
            ch + "key",
            key="key",
        )
        book.norm(
            f"ws-{tag}-trailing",
            f"{TRIM_SENTENCE} Trailing U+{code:04X} is trimmed.",
            "key" + ch,
            key="key",
        )
        book.norm(
            f"ws-{tag}-only",
            f"{TRIM_SENTENCE} A body of U+{code:04X} alone is empty.",
            ch,
            reason="empty",
        )
        reason = _interior_reason(code)
        if reason is None:
            book.norm(
                f"ws-{tag}-interior",
                f"{PRESERVE_SENTENCE} Interior U+{code:04X} is kept.",
                "a" + ch + "b",
                key="a" + ch + "b",
            )
        else:
            book.norm(
                f"ws-{tag}-interior",
                f"{CONTROL_SENTENCE} Interior U+{code:04X} is `{reason}`.",
                "a" + ch + "b",
                reason=reason,
            )
    book.norm(
        "ws-both-edges-interior-kept",
        PRESERVE_SENTENCE,
        "\u2002user\u00a0\u00a0name\u2002",
        key="user\u00a0\u00a0name",
    )


def _control_characters(book: CaseBook) -> None:
    whitespace = frozenset(WHITESPACE)
    for code in [*range(0x00, 0x20), *range(0x7F, 0xA0)]:
        if code in whitespace:
            continue
        book.norm(
            f"control-u{code:04x}-interior",
            f"{CONTROL_SENTENCE} U+{code:04X} is not in the trim set.",
            "a" + chr(code) + "b",
            reason="control-character",
        )
    book.norm(
        "control-leading-not-trimmed",
        f"{CONTROL_SENTENCE} U+0001 is not in the trim set, so it stays at the edge.",
        "\u0001key",
        reason="control-character",
    )
    book.norm(
        "control-trailing-del",
        f"{CONTROL_SENTENCE} U+007F is not in the trim set, so it stays at the edge.",
        "key\u007f",
        reason="control-character",
    )
    book.norm(
        "control-alone-not-empty",
        f"{CONTROL_SENTENCE} U+009F alone is not trimmed, so the body is not empty.",
        " \u009f ",
        reason="control-character",
    )
    book.norm(
        "nul-interior",
        "syntax.md rule 26: `{{a\\0b}}` is `control-character`.",
        "a\u0000b",
        reason="control-character",
    )
    book.norm(
        "trim-before-check",
        'Spec: "Trim before checking for forbidden control characters"',
        "\u001c\u001d key \u001e\u001f",
        key="key",
    )


def _reason_precedence(book: CaseBook) -> None:
    rule = "syntax.md rule 23: a line break and another control character give `line-break`."
    book.norm("precedence-break-then-control", rule, "a\nb\u0001c", reason="line-break")
    book.norm("precedence-control-then-break", rule, "a\u0001b\nc", reason="line-break")
    book.norm("precedence-del-and-u2028", rule, "a\u007f\u2028b", reason="line-break")
    book.norm("precedence-tab-and-cr", rule, "a\tb\rc", reason="line-break")
    book.norm("precedence-nel-and-nul", rule, "a\u0000\u0085b", reason="line-break")
    book.norm(
        "interior-crlf",
        f"{CONTROL_SENTENCE} CRLF inside the key is a line break.",
        "a\r\nb",
        reason="line-break",
    )
    book.norm(
        "interior-u2029-padded",
        f"{CONTROL_SENTENCE} Trimming the edges leaves the interior U+2029.",
        " a \u2029 b ",
        reason="line-break",
    )


def _unicode_and_lengths(book: CaseBook) -> None:
    no_norm = 'Spec: "do not normalize Unicode or punctuation."'
    book.norm(
        "feff-interior-retained",
        'Spec: "U+FEFF is retained as key content."',
        "a\ufeffb",
        key="a\ufeffb",
    )
    book.norm(
        "feff-leading-retained",
        'Spec: "U+FEFF is retained as key content."',
        "\ufeffkey",
        key="\ufeffkey",
    )
    book.norm(
        "feff-trailing-retained",
        'Spec: "U+FEFF is retained as key content."',
        " key\ufeff ",
        key="key\ufeff",
    )
    book.norm(
        "feff-alone-not-empty",
        'Spec: "U+FEFF is retained as key content."',
        " \ufeff ",
        key="\ufeff",
    )
    book.norm(
        "feff-shields-space",
        'Spec: "U+FEFF is retained as key content."; the space after it is interior.',
        "\ufeff key",
        key="\ufeff key",
    )
    book.norm(
        "zero-width-space-retained",
        f"{TRIM_SENTENCE} U+200B is not in the set.",
        "\u200bkey\u200b",
        key="\u200bkey\u200b",
    )
    book.norm(
        "word-joiner-retained",
        f"{TRIM_SENTENCE} U+2060 is not in the set.",
        "\u2060key",
        key="\u2060key",
    )
    book.norm(
        "mongolian-vowel-separator-retained",
        f"{TRIM_SENTENCE} U+180E is not in the set.",
        "key\u180e",
        key="key\u180e",
    )
    book.norm("combining-accent-not-composed", no_norm, "cafe\u0301", key="cafe\u0301")
    book.norm("precomposed-accent-kept", no_norm, "café", key="café")
    book.norm("fullwidth-not-folded", no_norm, "ＡＢＣ", key="ＡＢＣ")
    book.norm("fullwidth-punctuation-kept", no_norm, " 你喜欢什么？ ", key="你喜欢什么？")
    book.norm(
        "ideographic-space-interior-kept", PRESERVE_SENTENCE, "学习\u3000目标", key="学习\u3000目标"
    )
    book.norm("emoji-only", 'Spec: "Preserve ... Unicode, emoji"', " 🎯 ", key="🎯")
    book.norm(
        "emoji-zwj-sequence",
        'Spec: "Preserve ... Unicode, emoji"',
        "👩\u200d💻 role",
        key="👩\u200d💻 role",
    )
    book.norm("astral-math-letter", 'Spec: "Preserve ... Unicode"', "𝒳 value", key="𝒳 value")
    book.norm("right-to-left-text", 'Spec: "Preserve ... Unicode"', " ما اسمك؟ ", key="ما اسمك؟")
    book.norm(
        "long-key-not-truncated",
        'Spec: "The grammar sets no fixed name length. ... they must not silently truncate a key."',
        " " + "long " * 60 + "key ",
        key="long " * 60 + "key",
    )
    book.norm("repeated-interior-spaces", PRESERVE_SENTENCE, "a     b", key="a     b")
