"""Extraction cases: which markers plain surrounding text holds, and where."""

from __future__ import annotations

from casegen import CaseBook, I, M

ATOMIC = 'Spec: "Read from {{ through the first literal }}. Do not recursively parse {{ inside '
ATOMIC += 'that marker."; syntax.md rule 5.'
ESCAPE = "Spec: \"Escaping an opening brace with Markdown's backslash escape prevents it from "
ESCAPE += 'starting a marker."; syntax.md rule 4.'
UNCLOSED = 'Spec: "An unfinished marker in that text owns its remaining tail."; syntax.md rules '
UNCLOSED += "6 and 7."
OFFSETS = "Scan contract: offsets are Unicode code point offsets into the original text."
ENDINGS = "Spec: \"LF, CRLF and CR are physical line endings, without rewriting the marker's "
ENDINGS += 'original text or source offsets."; syntax.md rule 1.'


def build() -> CaseBook:
    book = CaseBook("extraction")
    _basics(book)
    _atomic_reading(book)
    _escapes(book)
    _invalid(book)
    _unclosed(book)
    _offsets_and_line_endings(book)
    build_priority(book)
    return book


def _basics(book: CaseBook) -> None:
    book.doc(
        "seed-reference-paragraph",
        'Spec: "Refer to that same question in a later prompt: Use the answer to '
        '{{ What would you like to learn? }} ..."',
        "Use the answer to {{ What would you like to learn? }} to choose a relevant\n"
        "example and explain it at an introductory level.",
        M("{{ What would you like to learn? }}", "What would you like to learn?"),
    )
    book.doc(
        "seed-heading-instruction",
        'Spec: "Use {{ What would you like to learn? }} to generate a chapter heading"',
        "Use {{ What would you like to learn? }} to generate a chapter heading and a\n"
        "short explanation. Choose examples that match the user's selected topic.",
        M("{{ What would you like to learn? }}", "What would you like to learn?"),
    )
    book.doc(
        "seed-table-instruction",
        'Spec: "Use {{ Which skills would you like to practice? }} to generate a table"',
        "Use {{ Which skills would you like to practice? }} to generate a table with one\n"
        "row per selected skill. Include a suitable first exercise for each skill.",
        M(
            "{{ Which skills would you like to practice? }}",
            "Which skills would you like to practice?",
        ),
    )
    book.doc(
        "seed-unavailable-answer",
        'Spec: "If the needed answer is unavailable, provide an instruction to ask for it"',
        "Use the answer to {{ What would you like to learn? }} to choose the topic.\n"
        "If that answer is unavailable, ask the user to choose a topic before continuing.",
        M("{{ What would you like to learn? }}", "What would you like to learn?"),
    )
    book.doc(
        "whole-document-is-marker",
        "syntax.md rule 4: `{{` in surrounding inline text starts a marker.",
        "{{user_name}}",
        M("{{user_name}}", "user_name"),
    )
    book.doc(
        "marker-mid-sentence",
        "syntax.md rule 4.",
        "Hello {{ name }}, welcome back.",
        M("{{ name }}", "name"),
    )
    book.doc(
        "two-markers",
        "syntax.md rule 4, each marker read independently.",
        "{{ first }} and {{ second }}",
        M("{{ first }}", "first"),
        M("{{ second }}", "second"),
    )
    book.doc(
        "same-key-twice",
        "Scan contract: every valid marker is reported.",
        "{{ a }} then {{ a }} again",
        M("{{ a }}", "a", nth=1),
        M("{{ a }}", "a", nth=2),
    )
    book.doc(
        "equivalent-spellings",
        'Spec: "{{name}}, {{ name}} and {{ name }} are equivalent."',
        "{{name}}, {{ name}} and {{ name }}",
        M("{{name}}", "name"),
        M("{{ name}}", "name"),
        M("{{ name }}", "name"),
    )
    book.doc(
        "case-sensitive-keys",
        'Spec: "Names are case-sensitive"',
        "{{Name}} {{name}}",
        M("{{Name}}", "Name"),
        M("{{name}}", "name"),
    )
    book.doc("adjacent-markers", ATOMIC, "{{a}}{{b}}", M("{{a}}", "a"), M("{{b}}", "b"))
    book.doc(
        "user-two-spaces-in-text",
        "syntax.md rule 27.",
        "Dear {{user  name}},",
        M("{{user  name}}", "user  name"),
    )
    book.doc(
        "emphasis-around-marker",
        "Emphasis is not a literal context (syntax.md rule 9).",
        "*{{ a }}* and **{{ b }}**",
        M("{{ a }}", "a"),
        M("{{ b }}", "b"),
    )
    book.doc(
        "link-text-is-surrounding",
        "syntax.md rule 9: only the resource (destination and title) of an inline link "
        "is literal; its text is surrounding text.",
        "[{{ a }}](/url)",
        M("{{ a }}", "a"),
    )
    book.doc(
        "percent-outside-interaction",
        "syntax.md rule 14 and section 6: `%{{` is a legacy *binding* only at the start "
        "of an interaction; elsewhere `%` is text and the marker a plain reference.",
        "Save 100%{{ rate }} now",
        M("{{ rate }}", "rate"),
    )
    book.doc(
        "table-row-text",
        "A pipe table is paragraph text in CommonMark.",
        "| {{ a }} | {{ b }} |\n|---|---|",
        M("{{ a }}", "a"),
        M("{{ b }}", "b"),
    )
    book.doc(
        "nel-edges-trimmed-in-text",
        "Spec: the whitespace set includes U+0085, so it pads a key like a space.",
        "x {{\u0085key\u0085}} y",
        M("{{\u0085key\u0085}}", "key"),
    )
    book.doc(
        "key-with-dollars",
        ATOMIC + " Math delimiters inside the body mean nothing.",
        "{{ $a$ }} and {{ b }}",
        M("{{ $a$ }}", "$a$"),
        M("{{ b }}", "b"),
    )


def _atomic_reading(book: CaseBook) -> None:
    book.doc(
        "no-nesting",
        'Spec table: "{{outer{{inner}} | outer{{inner (no nesting)"',
        "{{outer{{inner}}",
        M("{{outer{{inner}}", "outer{{inner"),
    )
    book.doc(
        "first-closing-wins",
        'Spec: "{{a}}b}} reads key a followed by text b}}."',
        "{{a}}b}}",
        M("{{a}}", "a"),
    )
    book.doc(
        "triple-braces",
        "syntax.md rule 5: `{{{a}}}` is key `{a` then text `}`.",
        "{{{a}}}",
        M("{{{a}}", "{a"),
    )
    book.doc(
        "brace-before-padding", 'Spec table: "{{ a} }} | a}"', "x {{ a} }} y", M("{{ a} }}", "a}")
    )
    book.doc("extra-closing-brace", ATOMIC, "{{a}}}", M("{{a}}", "a"))
    book.doc("double-closing-after", ATOMIC, "{{ a }}}} tail", M("{{ a }}", "a"))
    book.doc(
        "closer-before-opener", ATOMIC + " A lone `}}` is text.", "}} {{ a }}", M("{{ a }}", "a")
    )
    book.doc(
        "inner-braces", 'Spec table: "{{a{b}c}} | a{b}c"', "{{a{b}c}}", M("{{a{b}c}}", "a{b}c")
    )
    book.doc("marker-holding-opener", ATOMIC, "{{ {{ a }} }}", M("{{ {{ a }}", "{{ a"))
    book.doc(
        "interaction-text-in-marker",
        'Spec: "{{ key ?[A|B] }} is one memory marker, not an interaction."',
        "{{ key ?[A|B] }}",
        M("{{ key ?[A|B] }}", "key ?[A|B]"),
    )
    book.doc(
        "which-path-reference",
        'Spec: "Use {{ Which [path] | level//hint...? }} when adapting the next document."',
        "Use {{ Which [path] | level//hint...? }} when adapting the next document.",
        M("{{ Which [path] | level//hint...? }}", "Which [path] | level//hint...?"),
    )
    book.doc(
        "backtick-in-body",
        'Spec: "a recognized marker takes priority over Markdown-looking characters '
        'inside its own body, including backticks"',
        "{{ a`b }} and `c`",
        M("{{ a`b }}", "a`b"),
    )
    book.doc(
        "backtick-pair-split-by-marker",
        "syntax.md rule 3: the marker starts first and owns its extent; the backtick "
        "after it has no partner.",
        "{{ `a }} b`",
        M("{{ `a }}", "`a"),
    )
    book.doc(
        "html-in-body",
        'Spec: "a recognized marker takes priority over ... HTML"',
        "x {{ <b> }} y",
        M("{{ <b> }}", "<b>"),
    )
    book.doc(
        "tag-split-by-marker",
        "syntax.md rule 3: the marker starts before the tag, so the tag is cut and the "
        "key ends at the first `}}`.",
        'Text {{ a <span title="}}"> b',
        M('{{ a <span title="}}', 'a <span title="'),
    )
    book.doc(
        "link-split-by-marker",
        "syntax.md rule 3: a marker that starts inside a link's text owns its whole "
        "extent, so the link resource after it is part of the key.",
        "[{{ a ](/u) }}",
        M("{{ a ](/u) }}", "a ](/u)"),
    )
    book.doc(
        "backslash-before-closer",
        'Spec: "backslashes do not introduce escapes inside a name"; syntax.md rule 5.',
        "{{ a \\}}",
        M("{{ a \\}}", "a \\"),
    )
    book.doc(
        "quoted-key-in-text",
        'Spec: "{{"name"}} reads the key "name", including its quotes"',
        'Hi {{"name"}}!',
        M('{{"name"}}', '"name"'),
    )
    book.doc(
        "path-backslash-in-text",
        'Spec: "{{path\\}} reads the key ending in a backslash"',
        "Open {{path\\}} now",
        M("{{path\\}}", "path\\"),
    )
    book.doc(
        "index-and-property-in-text",
        'Spec: "{{name[0]}} and {{user.name}} read literal keys"',
        "{{name[0]}} and {{user.name}}",
        M("{{name[0]}}", "name[0]"),
        M("{{user.name}}", "user.name"),
    )
    book.doc(
        "single-brace-not-opener",
        "syntax.md rule 4: only `{{` starts a marker.",
        "{ {a}} and {a}",
    )


def _escapes(book: CaseBook) -> None:
    book.doc("escaped-opener", ESCAPE + " `\\{{a}}` is text.", "\\{{ a }}")
    book.doc(
        "escaped-backslash-then-marker",
        ESCAPE + " `\\\\{{a}}` is a marker.",
        "\\\\{{ a }}",
        M("{{ a }}", "a"),
    )
    book.doc(
        "three-backslashes", ESCAPE + " The third backslash escapes the brace.", "\\\\\\{{ a }}"
    )
    book.doc(
        "escaped-brace-then-opener",
        ESCAPE + " The escaped `{` is text; the next two braces open a marker.",
        "\\{{{ a }}",
        M("{{ a }}", "a"),
    )
    book.doc(
        "escaped-second-brace", "syntax.md rule 4: `{{` needs two unescaped braces.", "{\\{ a }}"
    )
    book.doc("escaped-then-real-marker", ESCAPE, "\\{{ a }} and {{ b }}", M("{{ b }}", "b"))
    book.doc("escaped-in-mid-text", ESCAPE, "Type \\{{name}} to write a marker.")


def _invalid(book: CaseBook) -> None:
    book.doc(
        "invalid-empty",
        'Spec: "{{}} and {{ }} are invalid"; syntax.md rule 6.',
        "Text {{}} here",
        I("{{}}", "empty"),
    )
    book.doc(
        "invalid-blank",
        'Spec: "{{}} and {{ }} are invalid"; syntax.md rule 6.',
        "Text {{ }} here",
        I("{{ }}", "empty"),
    )
    book.doc(
        "invalid-line-break",
        'Spec: "Interior line breaks and control characters are invalid."',
        "{{ first\nsecond }}",
        I("{{ first\nsecond }}", "line-break"),
    )
    book.doc(
        "invalid-control",
        'Spec: "Interior line breaks and control characters are invalid."',
        "A {{a\u0001b}} B",
        I("{{a\u0001b}}", "control-character"),
    )
    book.doc(
        "invalid-u2028",
        "syntax.md rule 6: U+2028 is a line break.",
        "{{a\u2028b}}",
        I("{{a\u2028b}}", "line-break"),
    )
    book.doc(
        "invalid-nul",
        "syntax.md rule 26: `{{a\\0b}}` is `control-character`.",
        "x {{a\u0000b}} y",
        I("{{a\u0000b}}", "control-character"),
    )
    book.doc(
        "invalid-then-valid",
        'Spec: "Invalid or empty markers remain literal text"; the next marker is read normally.',
        "{{ }} {{ a }}",
        I("{{ }}", "empty"),
        M("{{ a }}", "a"),
    )
    book.doc(
        "invalid-hides-no-nested",
        'Spec: "scanning their bodies must not discover nested memory markers."',
        "{{ {{\u0001}} }}",
        I("{{ {{\u0001}}", "control-character"),
    )
    book.doc("invalid-empty-then-closers", ATOMIC, "{{}}}}", I("{{}}", "empty"))
    book.doc(
        "invalid-legacy-outside",
        "syntax.md rule 22: the span of `%{{}}` excludes the `%`.",
        "%{{}}",
        I("{{}}", "empty"),
    )
    book.doc(
        "invalid-control-with-padding",
        'Spec: "Trim before checking for forbidden control characters"',
        "{{ a\u007fb }}",
        I("{{ a\u007fb }}", "control-character"),
    )
    book.doc(
        "invalid-both-reasons",
        "syntax.md rule 23.",
        "{{a\u0002\nb}}",
        I("{{a\u0002\nb}}", "line-break"),
    )


def _unclosed(book: CaseBook) -> None:
    book.doc("unclosed-to-end", UNCLOSED, "Text {{ name", I("{{ name", "unclosed"))
    book.doc("unclosed-bare-opener", UNCLOSED, "{{", I("{{", "unclosed"))
    book.doc(
        "unclosed-after-closer",
        UNCLOSED + " A `}}` before the opener does not close it.",
        "}}{{",
        I("{{", "unclosed"),
    )
    book.doc(
        "unclosed-hides-interaction",
        UNCLOSED + ' Spec: "do not discover controls inside it."',
        "Text {{ oops ?[A|B] `code`",
        I("{{ oops ?[A|B] `code`", "unclosed"),
    )
    book.doc("unclosed-single-braces", UNCLOSED, "{{ a } b }", I("{{ a } b }", "unclosed"))
    book.doc(
        "unclosed-brace-per-line",
        UNCLOSED + " `}` and `}` on two lines are not `}}`.",
        "{{ a }\n}",
        I("{{ a }\n}", "unclosed"),
    )
    book.doc(
        "unclosed-spans-lines",
        UNCLOSED + " It owns the rest of the paragraph.",
        "{{ a\nmore text\nand more",
        I("{{ a\nmore text\nand more", "unclosed"),
    )
    book.doc(
        "unclosed-stops-at-blank-line",
        "syntax.md rule 7: a marker never crosses a blank line.",
        "{{ a\n\n{{ b }}",
        I("{{ a", "unclosed"),
        M("{{ b }}", "b"),
    )
    book.doc(
        "unclosed-not-closed-by-next-paragraph",
        "syntax.md rule 7: a `}}` in a later block does not close it.",
        "{{ a\n\nb }}",
        I("{{ a", "unclosed"),
    )
    book.doc(
        "unclosed-trailing-spaces-excluded",
        "syntax.md rules 6 and 19: `end` is the end of the inline text, which excludes "
        "the paragraph's trailing spaces and final line ending.",
        "x {{ a   \n\nnext",
        I("{{ a", "unclosed"),
    )
    book.doc(
        "unclosed-trailing-tab-at-end",
        "syntax.md rules 6 and 19.",
        "x {{ a\t",
        I("{{ a", "unclosed"),
    )
    book.doc("unclosed-final-newline", "syntax.md rules 6 and 19.", "{{ a\n", I("{{ a", "unclosed"))
    book.doc(
        "unclosed-after-valid",
        UNCLOSED,
        "{{ a }} and {{ b",
        M("{{ a }}", "a"),
        I("{{ b", "unclosed"),
    )
    book.doc(
        "unclosed-hides-code-span",
        UNCLOSED + " The backticks after it are not a code span.",
        "{{ a `b` c",
        I("{{ a `b` c", "unclosed"),
    )


def _offsets_and_line_endings(book: CaseBook) -> None:
    book.doc("astral-emoji-before", OFFSETS, "🚀 {{ a }}", M("{{ a }}", "a"))
    book.doc(
        "astral-several-before",
        OFFSETS,
        "😀😀😀 {{ a }} 👍 {{ b }}",
        M("{{ a }}", "a"),
        M("{{ b }}", "b"),
    )
    book.doc("astral-in-key", OFFSETS, "🎯{{ 🚀 rocket }}🎯", M("{{ 🚀 rocket }}", "🚀 rocket"))
    book.doc("cjk-before", OFFSETS, "你好，{{ 名字 }}！", M("{{ 名字 }}", "名字"))
    book.doc(
        "zwj-sequence-before",
        OFFSETS + " A ZWJ emoji sequence is several code points.",
        "👩\u200d💻 {{ role }}",
        M("{{ role }}", "role"),
    )
    book.doc(
        "leading-bom-is-text",
        "syntax.md rule 26: a leading BOM is kept as text.",
        "\ufeff{{ a }}",
        M("{{ a }}", "a"),
    )
    book.doc(
        "edge-padding-lines",
        "syntax.md rule 7: `{{\\n key \\n}}` is key `key`.",
        "{{\n key \n}}",
        M("{{\n key \n}}", "key"),
    )
    book.doc(
        "edge-padding-indented",
        "syntax.md rules 7 and 19: continuation-line indentation is not inline text.",
        "{{\n   key\n   }}",
        M("{{\n   key\n   }}", "key"),
    )
    book.doc(
        "crlf-two-markers", ENDINGS, "{{ a }}\r\n{{ b }}", M("{{ a }}", "a"), M("{{ b }}", "b")
    )
    book.doc("cr-two-markers", ENDINGS, "{{ a }}\r{{ b }}", M("{{ a }}", "a"), M("{{ b }}", "b"))
    book.doc(
        "crlf-edge-padding",
        ENDINGS + " syntax.md rule 7.",
        "{{\r\nkey\r\n}}",
        M("{{\r\nkey\r\n}}", "key"),
    )
    book.doc(
        "cr-edge-padding",
        ENDINGS + " syntax.md rule 7.",
        "x {{\rkey\r}} y",
        M("{{\rkey\r}}", "key"),
    )
    book.doc(
        "crlf-interior-break",
        ENDINGS + " syntax.md rule 6.",
        "{{a\r\nb}}",
        I("{{a\r\nb}}", "line-break"),
    )
    book.doc(
        "cr-interior-break", ENDINGS + " syntax.md rule 6.", "{{a\rb}}", I("{{a\rb}}", "line-break")
    )
    book.doc(
        "crlf-blank-line-bounds",
        ENDINGS + " syntax.md rule 7.",
        "{{ a\r\n\r\n{{ b }}",
        I("{{ a", "unclosed"),
        M("{{ b }}", "b"),
    )
    book.doc(
        "cr-blank-line-bounds",
        ENDINGS + " syntax.md rule 7.",
        "{{ a\r\r{{ b }}",
        I("{{ a", "unclosed"),
        M("{{ b }}", "b"),
    )
    book.doc(
        "mixed-line-endings",
        ENDINGS,
        "{{ a }}\n{{ b }}\r\n{{ c }}\r{{ d }}",
        M("{{ a }}", "a"),
        M("{{ b }}", "b"),
        M("{{ c }}", "c"),
        M("{{ d }}", "d"),
    )
    book.doc(
        "nul-in-text-before",
        "syntax.md rule 26: NUL is U+FFFD for structure; offsets still count it as one code point.",
        "x\u0000 {{ a }}",
        M("{{ a }}", "a"),
    )
    book.doc(
        "many-paragraphs",
        OFFSETS,
        "First {{ a }}.\n\nSecond {{ b }}.\n\n\nThird {{ c }}.",
        M("{{ a }}", "a"),
        M("{{ b }}", "b"),
        M("{{ c }}", "c"),
    )


def build_priority(book: CaseBook) -> None:
    first = "syntax.md rule 3: the construct that starts first wins and owns its whole extent."
    book.doc(
        "marker-before-backtick-closer",
        first + " The marker ends at the first `}}`, inside what would have been a code span.",
        "{{ a `}}`",
        M("{{ a `}}", "a `"),
    )
    book.doc(
        "tag-before-marker-closer",
        first + " The tag ends before the `}}`; the marker "
        "in it is incomplete and the `}}` after it is text.",
        "x <b title='{{ a'> }}",
    )
    book.doc("title-before-marker-closer", first, "[x](/u '{{ a') }}")
