"""Document-context cases: literal contexts, blocks, containers and line endings."""

from __future__ import annotations

from casegen import CaseBook, I, M, X

INLINE_LIT = 'Spec: "document memory extraction still collects complete markers supported in '
INLINE_LIT += "literal examples, including inline code, HTML tags and fenced-code info "
INLINE_LIT += 'strings"; syntax.md rules 9 and 10 (`literal: true`).'
NOT_HIDE = 'Spec: "A marker-like example inside one of those literal contexts must not continue '
NOT_HIDE += 'beyond that context and hide later memory markers or controls."'
BLOCK_LIT = "syntax.md rule 10: markers inside block literal contexts are not reported at all."
PAIRING = 'Spec: "Code and math delimiters pair within their native paragraph or heading '
PAIRING += "context. They cannot pair across a blank paragraph or a native block boundary, "
PAIRING += 'including fenced blocks and ATX or Setext headings."'
MATH = "syntax.md rule 11: `$...$` where the opening `$` is not followed by whitespace and the "
MATH += "closing `$` is neither preceded by whitespace nor followed by a digit."
RAW_BLOCK = 'Spec: "the four raw HTML block types above instead end after their closing-tag '
RAW_BLOCK += 'line"; syntax.md rules 9, 10 and 16: its complete valid markers are literal.'
NO_ESCAPES = (
    "syntax.md rule 16: a raw HTML block (types 1-5) takes no backslash escapes, as CommonMark's"
    " raw HTML: a backslash before `{{` is text and the marker after it is a literal reference."
)
ORDINARY_HTML = "syntax.md rules 9 and 17: in an ordinary HTML block (type 6 or 7) the text "
ORDINARY_HTML += "between complete tags is surrounding text; Markdown inline syntax does not apply."
CONTAINER = "syntax.md rule 8: keys are read with container markers removed; offsets stay "
CONTAINER += "original."
BOUNDARY = "syntax.md rule 7: a marker never crosses a blank line or any other block boundary."
ENDINGS = 'Spec: "LF, CRLF and CR are physical line endings"; syntax.md rule 1.'


def build() -> CaseBook:
    book = CaseBook("document-context")
    _code_spans(book)
    _math(book)
    _links_and_autolinks(book)
    _inline_html(book)
    _reference_definitions(book)
    _fenced_and_indented(book)
    _raw_html_blocks(book)
    _ordinary_html_blocks(book)
    _headings_and_boundaries(book)
    _containers(book)
    _line_endings(book)
    build_more(book)
    build_lazy_and_type7(book)
    build_tabs_and_definitions(book)
    build_lesson(book)
    build_inline_fidelity(book)
    return book


def _code_spans(book: CaseBook) -> None:
    book.doc(
        "code-span-marker-literal",
        INLINE_LIT,
        "Write `{{ a }}` here",
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "code-span-then-marker",
        INLINE_LIT,
        "`{{ a }}` and {{ b }}",
        M("{{ a }}", "a", literal=True),
        M("{{ b }}", "b"),
    )
    book.doc(
        "code-span-double-backticks",
        INLINE_LIT,
        "``{{ a`b }}``",
        M("{{ a`b }}", "a`b", literal=True),
    )
    book.doc("code-span-incomplete-marker", NOT_HIDE, "Text `{{ a` and {{ b }}", M("{{ b }}", "b"))
    book.doc(
        "code-span-invalid-not-reported",
        "syntax.md rule 10: invalid markers inside a literal context are not reported.",
        "`{{ }}` {{ b }}",
        M("{{ b }}", "b"),
    )
    book.doc(
        "code-span-interaction-text",
        "syntax.md rule 10: literal markers never open an "
        "interaction; `?[` inside a code span is literal.",
        "`?[{{ q }} A|B]`",
        M("{{ q }}", "q", literal=True),
    )
    book.doc(
        "unmatched-backtick",
        "CommonMark: a backtick string without a partner is text.",
        "`{{ a }}",
        M("{{ a }}", "a"),
    )
    book.doc(
        "code-span-over-lines",
        PAIRING + " Within one paragraph they pair across lines.",
        "`a\n{{ b }}`",
        M("{{ b }}", "b", literal=True),
    )
    book.doc("code-span-not-across-blank", PAIRING, "`a\n\n{{ b }}`", M("{{ b }}", "b"))
    book.doc("code-span-not-across-atx", PAIRING, "# `a\n{{ b }}`", M("{{ b }}", "b"))
    book.doc("code-span-not-across-setext", PAIRING, "`a\n---\n{{ b }}`", M("{{ b }}", "b"))
    book.doc("code-span-not-across-fence", PAIRING, "`a\n```\nx\n```\n{{ b }}`", M("{{ b }}", "b"))
    book.doc(
        "code-span-hides-math",
        "syntax.md rule 3: the code spans start first, so the dollars inside them cannot pair.",
        "`$` {{ a }} `$`",
        M("{{ a }}", "a"),
    )
    book.doc(
        "code-span-escaped-opener-literal",
        "syntax.md rule 18: no backslash escapes in code spans, so the marker after the "
        "backslash is complete.",
        "`\\{{ a }}`",
        M("{{ a }}", "a", literal=True),
    )


def _math(book: CaseBook) -> None:
    book.doc("math-single-dollar", MATH, "$x + {{ a }}$", M("{{ a }}", "a", literal=True))
    book.doc("math-opening-space", MATH, "$ {{ a }}$", M("{{ a }}", "a"))
    book.doc("math-closing-space", MATH, "${{ a }} $", M("{{ a }}", "a"))
    book.doc("math-closing-digit", MATH, "${{ a }}$5", M("{{ a }}", "a"))
    book.doc("math-closing-letter", MATH, "${{ a }}$x", M("{{ a }}", "a", literal=True))
    book.doc(
        "math-closing-non-ascii-digit",
        MATH + " syntax.md rule 20: a digit is ASCII 0-9.",
        "${{ a }}$\u0663",
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "math-closing-nbsp",
        MATH + " syntax.md rule 20: whitespace includes Unicode space separators.",
        "$x {{ a }}\u00a0$",
        M("{{ a }}", "a"),
    )
    book.doc("math-opening-tab", MATH, "$\t{{ a }}$", M("{{ a }}", "a"))
    book.doc(
        "math-later-closer",
        MATH + " A `$` followed by a digit is skipped; the next qualifying `$` closes.",
        "$a$1 {{ b }}$",
        M("{{ b }}", "b", literal=True),
    )
    book.doc(
        "math-prices",
        MATH + " The `$` before 6 follows a space, so nothing pairs.",
        "From $5 to {{ a }} $6",
        M("{{ a }}", "a"),
    )
    book.doc(
        "math-double",
        "syntax.md rule 20: `$$` pairs with the next unescaped `$$`.",
        "$$ {{ a }} $$",
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "math-double-unmatched",
        "syntax.md rule 20: an unmatched `$$` is plain text (no fallback to single `$`).",
        "$${{ a }}$",
        M("{{ a }}", "a"),
    )
    book.doc(
        "math-double-over-lines",
        "syntax.md rules 11 and 20: math pairs within one inline text.",
        "$$\n{{ a }}\n$$",
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "math-escaped-dollar",
        "syntax.md rules 11 and 20: `\\$` is not a delimiter.",
        "\\$x {{ a }}$",
        M("{{ a }}", "a"),
    )
    book.doc(
        "math-even-backslashes",
        "syntax.md rule 20: a `$` after an odd run of "
        "backslashes is escaped; after an even run it is not.",
        "\\\\$x {{ a }}$",
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "math-two-spans",
        MATH,
        "$x {{ a }}$ and $y {{ b }}$",
        M("{{ a }}", "a", literal=True),
        M("{{ b }}", "b", literal=True),
    )
    book.doc("math-not-across-blank", PAIRING, "$a\n\nb {{ c }}$", M("{{ c }}", "c"))
    book.doc("math-incomplete-marker", NOT_HIDE, "$x {{ a$ then {{ b }}", M("{{ b }}", "b"))


def _links_and_autolinks(book: CaseBook) -> None:
    book.doc(
        "link-destination",
        INLINE_LIT + " Inline-link resources are literal contexts.",
        "See [text]({{a}}).",
        M("{{a}}", "a", literal=True),
    )
    book.doc(
        "link-destination-angle",
        INLINE_LIT,
        "See [text](<{{ a }}>).",
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "link-title-double",
        INLINE_LIT,
        'See [text](/url "{{ a }}").',
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "link-title-single",
        INLINE_LIT,
        "See [text](/url '{{ a }}').",
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "link-title-parens",
        INLINE_LIT,
        "See [text](/url ({{ a }})).",
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "link-text-and-title",
        INLINE_LIT,
        '[{{ a }}](/url "{{ b }}")',
        M("{{ a }}", "a"),
        M("{{ b }}", "b", literal=True),
    )
    book.doc(
        "not-a-link-with-spaces",
        "CommonMark: `(/url {{ a }})` is no valid resource, so there is no link and no "
        "literal context.",
        "[text](/url {{ a }})",
        M("{{ a }}", "a"),
    )
    book.doc("link-incomplete-marker", NOT_HIDE, "[x]({{a) then {{ b }}", M("{{ b }}", "b"))
    book.doc(
        "image-destination",
        INLINE_LIT + " Image resources are literal contexts.",
        "![alt]({{a}})",
        M("{{a}}", "a", literal=True),
    )
    book.doc("image-title", INLINE_LIT, '![alt](/i.png "{{ a }}")', M("{{ a }}", "a", literal=True))
    book.doc(
        "image-description-surrounding",
        "syntax.md rule 9 lists only the destination and title of an image as literal.",
        "![{{ a }}](/i.png)",
        M("{{ a }}", "a"),
    )
    book.doc(
        "uri-autolink",
        INLINE_LIT + " Complete URI autolinks are literal contexts.",
        "Visit <https://example.com/?q={{a}}> now",
        M("{{a}}", "a", literal=True),
    )
    book.doc(
        "uri-autolink-incomplete",
        "CommonMark: an autolink cannot hold spaces, so this is text, not a literal context.",
        "<https://example.com/{{ a }}>",
        M("{{ a }}", "a"),
    )
    book.doc(
        "email-autolink",
        INLINE_LIT + " Complete email autolinks are literal contexts.",
        "Mail <{{a}}@example.com> today",
        M("{{a}}", "a", literal=True),
    )
    book.doc(
        "reference-label-without-definition",
        "syntax.md rule 24: a reference link label (`[x][{{a}}]`) is a literal context.",
        "[x][{{a}}]",
        M("{{a}}", "a", literal=True),
    )
    book.doc(
        "reference-link-label",
        "syntax.md rule 24: a reference link label is a literal "
        "context; a link reference definition is one too.",
        "[x][{{a}}]\n\n[{{a}}]: /url",
        M("{{a}}", "a", literal=True, nth=1),
        M("{{a}}", "a", literal=True, nth=2),
    )


def _inline_html(book: CaseBook) -> None:
    book.doc(
        "inline-open-tag",
        INLINE_LIT,
        'Text <span title="{{ a }}">x</span>',
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "inline-tag-attribute-seed",
        'Spec: "putting a marker inside an HTML attribute does not guarantee that the '
        'host will interpolate an answer there."',
        'An image <img alt="{{ a }}"> here',
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "inline-closing-tag-invalid",
        "CommonMark: a closing tag holds only its name, so `</span {{ a }}>` is text.",
        "Text </span {{ a }}> more",
        M("{{ a }}", "a"),
    )
    book.doc(
        "inline-closing-tag-then-marker",
        "A complete closing tag ends where it ends.",
        "<em>x</em>{{ a }}",
        M("{{ a }}", "a"),
    )
    book.doc(
        "inline-comment",
        INLINE_LIT,
        "Text <!-- {{ a }} --> and {{ b }}",
        M("{{ a }}", "a", literal=True),
        M("{{ b }}", "b"),
    )
    book.doc(
        "inline-processing-instruction",
        INLINE_LIT,
        "Text <?php echo '{{ a }}'; ?> done",
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "inline-declaration",
        INLINE_LIT,
        "Text <!DOCTYPE {{ a }}> done",
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "inline-cdata",
        INLINE_LIT,
        "Text <![CDATA[ {{ a }} ]]> done",
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "inline-incomplete-tag",
        'Spec: "complete HTML tags"; an incomplete tag is text.',
        'Text <span title="{{ a }}" more',
        M("{{ a }}", "a"),
    )
    book.doc(
        "inline-incomplete-comment",
        'Spec: "complete HTML tags"; an unterminated comment is text.',
        "Text <!-- {{ a }} more",
        M("{{ a }}", "a"),
    )
    book.doc(
        "inline-tag-incomplete-marker",
        NOT_HIDE,
        'Text <span title="{{ a">x</span> {{ b }}',
        M("{{ b }}", "b"),
    )
    book.doc(
        "inline-tag-hides-interaction",
        "syntax.md rule 10: literal contexts never open an interaction.",
        'Text <span title="?[A|B]">x</span>',
    )
    book.doc(
        "inline-tag-after-marker",
        "syntax.md rule 3: a complete tag after a marker is its own literal context.",
        'Text {{ a }}<b title="{{ b }}">',
        M("{{ a }}", "a"),
        M("{{ b }}", "b", literal=True),
    )


def _reference_definitions(book: CaseBook) -> None:
    lrd = "syntax.md rule 9: link reference definitions are inline literal contexts."
    book.doc("definition-destination", lrd, "[ref]: /url/{{a}}", M("{{a}}", "a", literal=True))
    book.doc("definition-title", lrd, '[ref]: /url "{{ a }}"', M("{{ a }}", "a", literal=True))
    book.doc(
        "definition-title-next-line",
        lrd,
        '[ref]: /url\n  "{{ a }}"',
        M("{{ a }}", "a", literal=True),
    )
    book.doc("definition-label", lrd, "[{{a}}]: /url", M("{{a}}", "a", literal=True))
    book.doc(
        "definition-no-interaction",
        lrd + " syntax.md rule 10.",
        '[ref]: /url "?[{{ q }} A|B]"',
        M("{{ q }}", "q", literal=True),
    )
    book.doc("definition-invalid-not-reported", lrd + " syntax.md rule 10.", '[ref]: /url "{{ }}"')
    book.doc(
        "definition-then-paragraph",
        lrd,
        '[ref]: /url "{{ a }}"\n{{ b }}',
        M("{{ a }}", "a", literal=True),
        M("{{ b }}", "b"),
    )


def _fenced_and_indented(book: CaseBook) -> None:
    book.doc(
        "fence-info-string", INLINE_LIT, "```{{ a }}\ncode\n```", M("{{ a }}", "a", literal=True)
    )
    book.doc("fence-body-not-reported", BLOCK_LIT, "```\n{{ a }}\n?[A|B]\n{{ }}\n```")
    book.doc(
        "fence-info-and-body",
        INLINE_LIT + " " + BLOCK_LIT,
        '```python {{ lang }}\nprint("{{ x }}")\n```\n{{ y }}',
        M("{{ lang }}", "lang", literal=True),
        M("{{ y }}", "y"),
    )
    book.doc(
        "tilde-fence",
        INLINE_LIT + " " + BLOCK_LIT,
        "~~~ {{ a }}\n{{ b }}\n~~~",
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "fence-info-incomplete-marker",
        NOT_HIDE + " " + BLOCK_LIT,
        "``` {{ a\ncode }}\n```\n{{ b }}",
        M("{{ b }}", "b"),
    )
    book.doc(
        "fence-unclosed-to-end",
        "CommonMark: an unclosed fence runs to the end of the document. " + BLOCK_LIT,
        "```\n{{ a }}\n\n{{ b }}",
    )
    book.doc(
        "fence-longer-closer",
        "CommonMark: the closing fence must be at least as long. " + BLOCK_LIT,
        "````\n```\n{{ a }}\n````\n{{ b }}",
        M("{{ b }}", "b"),
    )
    book.doc(
        "fence-after-paragraph",
        "CommonMark: a fence interrupts a paragraph. " + BLOCK_LIT,
        "Text {{ a }}\n```\n{{ b }}\n```",
        M("{{ a }}", "a"),
    )
    book.doc("indented-code", BLOCK_LIT, "    {{ a }}\n    ?[A|B]")
    book.doc(
        "indented-code-between", BLOCK_LIT, "Text\n\n    {{ a }}\n\n{{ b }}", M("{{ b }}", "b")
    )
    book.doc(
        "indented-continuation-is-paragraph",
        "CommonMark: indented code cannot interrupt a paragraph.",
        "Text\n    {{ a }}",
        M("{{ a }}", "a"),
    )


def _raw_html_blocks(book: CaseBook) -> None:
    book.doc(
        "html1-pre",
        RAW_BLOCK,
        "<pre>\n{{ a }}\n</pre>\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "html1-backslash-not-escape",
        NO_ESCAPES,
        "<pre>\n\\{{ q }}\n</pre>\n",
        M("{{ q }}", "q", literal=True, context="html-block"),
    )
    book.doc(
        "html1-double-backslash",
        NO_ESCAPES + " Two backslashes are two characters of the block.",
        "<pre>\n\\\\{{ q }}\n</pre>\n",
        M("{{ q }}", "q", literal=True, context="html-block"),
    )
    book.doc(
        "html1-script-backslash-not-escape",
        NO_ESCAPES + " In a script the backslash is the script's own text.",
        "<script>\nvar a = '\\{{k}}';\n</script>\n",
        M("{{k}}", "k", literal=True, context="html-block"),
    )
    book.doc(
        "html2-backslash-not-escape",
        NO_ESCAPES + " The same holds in a comment block.",
        "<!--\n\\{{ q }}\n-->\n",
        M("{{ q }}", "q", literal=True, context="html-comment"),
    )
    book.doc(
        "html1-script",
        RAW_BLOCK,
        "<script>\nvar x = '{{ a }}';\n</script>\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "html1-style",
        RAW_BLOCK,
        "<style>\n/* {{ a }} */\n</style>\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "html1-textarea",
        RAW_BLOCK,
        "<textarea>\n{{ a }}\n\n{{ c }}\n</textarea>\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
        M("{{ c }}", "c", literal=True, context="html-block"),
    )
    book.doc(
        "html1-closing-line-included",
        'Spec: "Raw HTML blocks include the whole line containing their closing tag."',
        "<script>\nx\n</script> {{ a }}\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "html1-one-line",
        RAW_BLOCK,
        "<style>p { color: red; }</style> {{ a }}",
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "html1-opening-tag-excluded",
        'syntax.md rule 16: `<pre title="{{a}}">` on its own line reports nothing.',
        '<pre title="{{a}}">\ntext\n</pre>',
        M("{{a}}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "html1-incomplete-opening",
        'Spec: "Raw HTML blocks and recognized block tags '
        'follow native block-start rules even when their opening tag is incomplete."',
        "<script\n{{ a }}\n</script>",
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "html1-interrupts-paragraph",
        "CommonMark: HTML blocks of types 1-6 interrupt a paragraph. " + BLOCK_LIT,
        "Text {{ a }}\n<pre>\n{{ b }}\n</pre>",
        M("{{ a }}", "a"),
        M("{{ b }}", "b", literal=True, context="html-block"),
    )
    book.doc(
        "html1-cuts-unclosed-marker", BOUNDARY, "{{ a\n<pre>\n}}\n</pre>", I("{{ a", "unclosed")
    )
    book.doc(
        "html2-comment",
        RAW_BLOCK,
        "<!--\n{{ a }}\n-->\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-comment"),
    )
    book.doc(
        "html2-comment-closing-line",
        'Spec: "HTML comments ... include their entire terminating line."',
        "<!-- x -->{{ a }}\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-comment"),
    )
    book.doc(
        "html3-processing-instruction",
        RAW_BLOCK,
        "<?php\necho '{{ a }}';\n?>\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "html4-declaration",
        RAW_BLOCK,
        "<!DOCTYPE html {{ a }}>\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "html5-cdata",
        RAW_BLOCK,
        "<![CDATA[\n{{ a }}\n]]>\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "html1-in-quote-closed-by-container",
        'Spec: "A confirmed container end also bounds an HTML block."',
        "> <pre>\n> {{ a }}\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "html2-in-list-closed-by-container",
        'Spec: "A confirmed container end also bounds an HTML block."',
        "- <!--\n  {{ a }}\n\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-comment"),
    )


def _ordinary_html_blocks(book: CaseBook) -> None:
    book.doc("html6-text-counts", ORDINARY_HTML, "<div>\n{{ a }}\n</div>", M("{{ a }}", "a"))
    book.doc(
        "html6-tag-literal",
        ORDINARY_HTML + " syntax.md rule 16: the complete tag is a "
        "literal context whose markers count.",
        '<div title="{{ a }}">\n{{ b }}\n</div>',
        M("{{ a }}", "a", literal=True),
        M("{{ b }}", "b"),
    )
    book.doc(
        "html6-ends-at-blank-line",
        'Spec: "Ordinary HTML blocks such as <div> end at the next blank line"',
        "<div>\n{{ a }}\n\n{{ b }}\n</div>",
        M("{{ a }}", "a"),
        M("{{ b }}", "b"),
    )
    book.doc("html6-no-code-spans", ORDINARY_HTML, "<div>\n`{{ a }}`\n</div>", M("{{ a }}", "a"))
    book.doc("html6-no-escapes", ORDINARY_HTML, "<div>\n\\{{ a }}\n</div>", M("{{ a }}", "a"))
    book.doc(
        "html6-interaction",
        ORDINARY_HTML,
        "<div>\n?[{{ q }} A|B]\n</div>",
        M("{{ q }}", "q", role="binding"),
        X("?[{{ q }} A|B]", ["A", "B"], binding="q"),
    )
    book.doc(
        "html6-inline-comment",
        ORDINARY_HTML,
        "<div><!-- {{ a }} --> {{ b }}</div>",
        M("{{ a }}", "a", literal=True),
        M("{{ b }}", "b"),
    )
    book.doc(
        "html6-unclosed-marker",
        ORDINARY_HTML + " syntax.md rule 6: an unclosed marker owns the rest of the block's text.",
        "<div>\n{{ a\n</div>\n\n{{ b }}",
        I("{{ a\n</div>", "unclosed"),
        M("{{ b }}", "b"),
    )
    book.doc(
        "html6-incomplete-opening",
        'Spec: "recognized block tags follow native '
        'block-start rules even when their opening tag is incomplete."; so no code span.',
        "<div\n`{{ a }}`",
        M("{{ a }}", "a"),
    )
    book.doc(
        "html6-interrupts-paragraph",
        "CommonMark: a type 6 block interrupts a paragraph.",
        "{{ a\n<div>\n}}",
        I("{{ a", "unclosed"),
    )
    book.doc(
        "html7-text-counts",
        ORDINARY_HTML,
        "<custom-element>\n{{ a }}\n</custom-element>",
        M("{{ a }}", "a"),
    )
    book.doc(
        "html7-tag-literal",
        ORDINARY_HTML,
        '<span data-q="{{ a }}">\n`{{ b }}`',
        M("{{ a }}", "a", literal=True),
        M("{{ b }}", "b"),
    )
    book.doc(
        "html7-cannot-interrupt-paragraph",
        "CommonMark: a type 7 block cannot interrupt "
        "a paragraph, so the tag is inline HTML and the backticks a code span.",
        'Text\n<span title="{{ a }}">\n`{{ b }}`',
        M("{{ a }}", "a", literal=True),
        M("{{ b }}", "b", literal=True),
    )
    book.doc(
        "html7-no-interrupt-marker-continues",
        BOUNDARY + " A type 7 tag is no boundary inside a paragraph.",
        "{{ a\n<span>\n}}",
        I("{{ a\n<span>\n}}", "line-break"),
    )


def _headings_and_boundaries(book: CaseBook) -> None:
    book.doc(
        "atx-heading",
        "syntax.md rule 2: headings have inline text.",
        "# {{ a }}",
        M("{{ a }}", "a"),
    )
    book.doc(
        "atx-heading-closing-sequence", "syntax.md rule 19.", "## {{ a }} ##", M("{{ a }}", "a")
    )
    book.doc("atx-heading-interaction", "syntax.md rule 12.", "## ?[A|B]", X("?[A|B]", ["A", "B"]))
    book.doc(
        "atx-unclosed-before-closing-sequence",
        "syntax.md rules 6 and 19: the heading's inline text ends before the closing `#` sequence.",
        "# {{ a #",
        I("{{ a", "unclosed"),
    )
    book.doc("atx-ends-marker", BOUNDARY, "# {{ a\nb }}", I("{{ a", "unclosed"))
    book.doc("setext-heading", "syntax.md rule 2.", "{{ a }}\n===", M("{{ a }}", "a"))
    book.doc("setext-ends-marker", BOUNDARY, "{{ a\n===\n}}", I("{{ a", "unclosed"))
    book.doc(
        "thematic-break-between",
        "syntax.md rule 2.",
        "{{ a }}\n***\n{{ b }}",
        M("{{ a }}", "a"),
        M("{{ b }}", "b"),
    )
    book.doc("quote-interrupts-marker", BOUNDARY, "{{ a\n> }}", I("{{ a", "unclosed"))
    book.doc("bullet-interrupts-marker", BOUNDARY, "{{ a\n- }}", I("{{ a", "unclosed"))
    book.doc(
        "ordered-two-does-not-interrupt",
        "CommonMark: only a list starting at 1 "
        "interrupts a paragraph, so the marker continues and holds a line break.",
        "{{ a\n2. }}",
        I("{{ a\n2. }}", "line-break"),
    )
    book.doc("fence-interrupts-marker", BOUNDARY, "{{ a\n```\n}}", I("{{ a", "unclosed"))
    book.doc(
        "indented-line-continues-marker",
        "syntax.md rules 7 and 19: an indented line "
        "continues the paragraph and its indentation is not inline text.",
        "{{ a\n    }}",
        M("{{ a\n    }}", "a"),
    )


def _containers(book: CaseBook) -> None:
    book.doc("quote-marker", CONTAINER, "> {{ a }}", M("{{ a }}", "a"))
    book.doc("quote-key-over-lines", CONTAINER, "> {{\n> key\n> }}", M("{{\n> key\n> }}", "key"))
    book.doc("quote-line-break", CONTAINER, "> {{ a\n> b }}", I("{{ a\n> b }}", "line-break"))
    book.doc(
        "quote-lazy-continuation",
        CONTAINER + " A lazy continuation line belongs to the quoted paragraph.",
        "> Use {{\nkey }} here",
        M("{{\nkey }}", "key"),
    )
    book.doc("quote-lazy-closer", CONTAINER, "> {{ a\n}}", M("{{ a\n}}", "a"))
    book.doc("quote-ends-at-blank", BOUNDARY, "> {{ a\n\n}}", I("{{ a", "unclosed"))
    book.doc(
        "quote-code-span",
        CONTAINER + " " + INLINE_LIT,
        "> `{{ a }}`",
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "list-items",
        CONTAINER,
        "- {{ a }}\n- ?[{{ q }} A|B]",
        M("{{ a }}", "a"),
        M("{{ q }}", "q", role="binding"),
        X("?[{{ q }} A|B]", ["A", "B"], binding="q"),
    )
    book.doc(
        "ordered-list-items",
        CONTAINER,
        "1. {{ a }}\n2. {{ b }}",
        M("{{ a }}", "a"),
        M("{{ b }}", "b"),
    )
    book.doc("list-continuation", CONTAINER, "- {{\n  key }}", M("{{\n  key }}", "key"))
    book.doc("list-item-ends-marker", BOUNDARY, "- {{ a\n- b }}", I("{{ a", "unclosed"))
    book.doc("list-lazy-continuation", CONTAINER, "- {{ a\nb }}", I("{{ a\nb }}", "line-break"))
    book.doc(
        "nested-quote-list",
        CONTAINER,
        "> - {{ a }}\n>   - {{ b }}",
        M("{{ a }}", "a"),
        M("{{ b }}", "b"),
    )
    book.doc("nested-list-quote", CONTAINER, "- > {{\n  > key }}", M("{{\n  > key }}", "key"))
    book.doc(
        "fence-in-quote-closed",
        'Spec: "Keep native Markdown boundaries for fences inside list or quote containers"',
        "> ```\n> {{ a }}\n{{ b }}",
        M("{{ b }}", "b"),
    )
    book.doc(
        "fence-in-list-closed",
        'Spec: "Keep native Markdown boundaries for fences inside list or quote containers"',
        "- ```\n  {{ a }}\n- {{ b }}",
        M("{{ b }}", "b"),
    )
    book.doc(
        "quote-interaction-over-lines", CONTAINER, "> ?[A |\n> B]", X("?[A |\n> B]", ["A", "B"])
    )
    book.doc(
        "quote-hint-over-lines",
        CONTAINER + " syntax.md rule 19.",
        "> ?[...first\n> second]",
        X("?[...first\n> second]", input="first\nsecond"),
    )
    book.doc(
        "quote-choice-over-lines",
        CONTAINER + " syntax.md rule 19.",
        "> ?[One\n> two|B]",
        X("?[One\n> two|B]", ["One\ntwo", "B"]),
    )
    book.doc(
        "list-binding-over-lines",
        CONTAINER,
        "1. ?[{{\n   q }} A]",
        M("{{\n   q }}", "q", role="binding"),
        X("?[{{\n   q }} A]", ["A"], binding="q"),
    )
    book.doc(
        "astral-before-quote",
        CONTAINER + " Offsets are code points.",
        "🚀🚀\n\n> {{ a }} 🎯 {{ b }}",
        M("{{ a }}", "a"),
        M("{{ b }}", "b"),
    )


def _line_endings(book: CaseBook) -> None:
    book.doc(
        "crlf-quote-key", ENDINGS + " " + CONTAINER, "> {{\r\n> key }}", M("{{\r\n> key }}", "key")
    )
    book.doc("cr-fence", ENDINGS + " " + BLOCK_LIT, "```\r{{ a }}\r```\r{{ b }}", M("{{ b }}", "b"))
    book.doc(
        "crlf-html6", ENDINGS + " " + ORDINARY_HTML, "<div>\r\n{{ a }}\r\n</div>", M("{{ a }}", "a")
    )
    book.doc(
        "crlf-html1",
        ENDINGS + " " + RAW_BLOCK,
        "<pre>\r\n{{ a }}\r\n</pre>\r\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc("cr-heading", ENDINGS, "# {{ a\r}}", I("{{ a", "unclosed"))
    book.doc(
        "crlf-code-span", ENDINGS + " " + PAIRING, "`a\r\n{{ b }}`", M("{{ b }}", "b", literal=True)
    )
    book.doc(
        "seed-lesson-document",
        "The spec's memory lesson as one document.",
        "Ask which topic the user wants to learn, and save the answer for later lessons.\r\n"
        "?[{{ What would you like to learn? }} Python | JavaScript | ...Another topic]\r\n"
        "\r\n"
        "```markdown\r\n"
        "?[{{ example }} A|B]\r\n"
        "```\r\n"
        "\r\n"
        "Use the answer to {{ What would you like to learn? }} to choose a relevant\r\n"
        "example and explain it at an introductory level.\r\n",
        M(
            "{{ What would you like to learn? }}",
            "What would you like to learn?",
            role="binding",
            nth=1,
        ),
        M("{{ What would you like to learn? }}", "What would you like to learn?", nth=2),
        X(
            "?[{{ What would you like to learn? }} Python | JavaScript | ...Another topic]",
            ["Python", "JavaScript"],
            binding="What would you like to learn?",
            input="Another topic",
        ),
    )


def build_more(book: CaseBook) -> None:
    _escapes_by_context(book)
    _native_block_rules(book)
    _commonmark_details(book)


def _escapes_by_context(book: CaseBook) -> None:
    escapes = "syntax.md rule 18: backslash escapes work in surrounding text, link "
    escapes += "destinations and titles, link reference definitions and info strings; not in "
    escapes += "code spans, math, autolinks or raw HTML."
    book.doc(
        "escape-in-link-destination",
        escapes + " The escaped brace starts no marker.",
        "[x](/u\\{{a}})",
    )
    book.doc("escape-in-link-title", escapes, '[x](/u "\\{{ a }}")')
    book.doc("escape-in-info-string", escapes, "```\\{{ a }}\ncode\n```")
    book.doc("escape-in-definition", escapes, '[ref]: /url "\\{{ a }}"')
    book.doc(
        "no-escape-in-autolink",
        escapes + " The marker after the backslash is complete.",
        "<https://x.org/\\{{a}}>",
        M("{{a}}", "a", literal=True),
    )
    book.doc(
        "no-escape-in-raw-html", escapes, 'x <a title="\\{{a}}">', M("{{a}}", "a", literal=True)
    )
    book.doc("no-escape-in-math", escapes, "$\\{{a}}$", M("{{a}}", "a", literal=True))
    book.doc(
        "backslash-ends-code-span",
        "CommonMark: a backslash inside a code span is literal, so the second backtick closes it.",
        "`a\\`{{ b }}`",
        M("{{ b }}", "b"),
    )
    book.doc(
        "hard-break-backslash-in-body",
        "syntax.md rule 5: a marker body is not scanned for escapes, so a backslash "
        "before a line ending is key text.",
        "{{ a\\\n}}",
        M("{{ a\\\n}}", "a\\"),
    )
    book.doc(
        "entity-is-not-brace",
        "syntax.md rule 1: offsets and markers refer to the "
        "original source; `&#123;` is not a brace there.",
        "&#123;{ a }} and &#123;&#123;b}}",
    )


def _native_block_rules(book: CaseBook) -> None:
    native = "syntax.md rule 2: MarkdownFlow never moves where a block starts or ends."
    book.doc(
        "list-wide-gap-is-code",
        native + " CommonMark: five spaces after a list marker make the rest indented code.",
        "-     {{ a }}",
    )
    book.doc(
        "quote-indented-code",
        native + " Four spaces after `> ` are indented code.",
        ">     {{ a }}\n\n{{ b }}",
        M("{{ b }}", "b"),
    )
    book.doc(
        "quote-tab-after-marker",
        CONTAINER + " A tab after `>` is container whitespace.",
        ">\t{{ a }}",
        M("{{ a }}", "a"),
    )
    book.doc(
        "list-indented-code-in-item",
        native + " Indented code inside a list item.",
        "- a\n\n      {{ b }}\n\n- {{ c }}",
        M("{{ c }}", "c"),
    )
    book.doc("list-second-paragraph", CONTAINER, "- a\n\n  {{ b }}", M("{{ b }}", "b"))
    book.doc(
        "ordered-paren-list",
        CONTAINER,
        "1) {{ a }}\n2) ?[{{ q }} X]",
        M("{{ a }}", "a"),
        M("{{ q }}", "q", role="binding"),
        X("?[{{ q }} X]", ["X"], binding="q"),
    )
    book.doc("quote-blank-line-inside", BOUNDARY, "> {{ a\n>\n> }}", I("{{ a", "unclosed"))
    book.doc(
        "quote-unclosed-over-lines",
        "syntax.md rule 6: an unclosed marker owns the rest "
        "of the inline text; its end maps back to the source.",
        "> {{ a\n> b",
        I("{{ a\n> b", "unclosed"),
    )
    book.doc("list-unclosed-lazy", "syntax.md rule 6.", "- {{ a\nb", I("{{ a\nb", "unclosed"))
    book.doc(
        "fence-in-quote-lazy-line-not-fence",
        'Spec: "Keep native Markdown boundaries for fences inside list or quote '
        'containers"; a fence takes no lazy lines.',
        "> ```\n{{ a }}",
        M("{{ a }}", "a"),
    )
    book.doc(
        "html1-uppercase",
        RAW_BLOCK + " Block-start tags are case-insensitive.",
        "<PRE>\n{{ a }}\n</PRE>\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "html1-other-closing-tag",
        RAW_BLOCK + " CommonMark: a type 1 block ends at the "
        "first line holding any of `</script>`, `</pre>`, `</style>`, `</textarea>`.",
        "<pre>\n{{ a }}\n</script>\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "html3-one-line",
        RAW_BLOCK,
        '<?xml version="1.0"?> {{ a }}\n{{ b }}',
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "html4-lowercase",
        RAW_BLOCK,
        "<!doctype {{ a }}>\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "html1-in-list-closed",
        'Spec: "A confirmed container end also bounds an HTML block."',
        "- <script>\n  {{ a }}\n- {{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "html6-in-quote-closed",
        'Spec: "A confirmed container end also bounds an HTML '
        'block."; after it the backticks are a code span again.',
        "> <div>\n> `{{ a }}`\n`{{ b }}`",
        M("{{ a }}", "a"),
        M("{{ b }}", "b", literal=True),
    )
    book.doc("html6-in-list", ORDINARY_HTML, "- <div>\n  `{{ a }}`", M("{{ a }}", "a"))
    book.doc(
        "html6-same-line-text",
        ORDINARY_HTML + " A type 6 start needs no lone tag.",
        "<div> `{{ a }}`",
        M("{{ a }}", "a"),
    )
    book.doc(
        "html7-needs-lone-tag",
        "CommonMark: a type 7 start needs the tag alone on its "
        "line, so this is a paragraph with a code span.",
        "<span> `{{ a }}`",
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "html7-ends-at-blank",
        'Spec: "Ordinary HTML blocks ... end at the next blank line"',
        "<span>\n`{{ a }}`\n\n`{{ b }}`",
        M("{{ a }}", "a"),
        M("{{ b }}", "b", literal=True),
    )
    book.doc(
        "definition-cannot-interrupt-paragraph",
        "CommonMark: a link reference "
        "definition cannot interrupt a paragraph, so this is paragraph text.",
        'Text\n[ref]: /url "{{ a }}"',
        M("{{ a }}", "a"),
    )
    book.doc(
        "definition-in-quote",
        "syntax.md rule 9.",
        "> [ref]: /u/{{a}}",
        M("{{a}}", "a", literal=True),
    )
    book.doc(
        "definition-title-over-lines",
        "syntax.md rules 7 and 9: a title may span lines; the marker in it is complete.",
        '[ref]: /url "{{ a\n}}"',
        M("{{ a\n}}", "a", literal=True),
    )
    book.doc("interaction-cut-by-setext", BOUNDARY, "?[A|\n===\nB]")
    book.doc(
        "interaction-in-setext-heading",
        "syntax.md rule 12.",
        "?[A|B]\n---",
        X("?[A|B]", ["A", "B"]),
    )
    book.doc(
        "quote-legacy-binding",
        CONTAINER,
        "> ?[%{{ q }} A]",
        M("%{{ q }}", "q", role="binding", legacy=True),
        X("?[%{{ q }} A]", ["A"], binding="q"),
    )
    book.doc("cr-quote-key", ENDINGS + " " + CONTAINER, "> {{\r> key }}", M("{{\r> key }}", "key"))
    book.doc(
        "crlf-unclosed-trailing-spaces",
        ENDINGS + " syntax.md rule 19.",
        "{{ a  \r\n\r\nb",
        I("{{ a", "unclosed"),
    )
    book.doc(
        "atx-unclosed-trailing-spaces",
        "syntax.md rules 6 and 19.",
        "# {{ a   ",
        I("{{ a", "unclosed"),
    )
    book.doc(
        "setext-unclosed-trailing-spaces",
        "syntax.md rules 6 and 19.",
        "{{ a  \n===",
        I("{{ a", "unclosed"),
    )
    book.doc(
        "setext-line-break-key",
        "syntax.md rule 6: a setext heading's inline text keeps its interior line ending.",
        "{{ a\nb }}\n===",
        I("{{ a\nb }}", "line-break"),
    )


def _commonmark_details(book: CaseBook) -> None:
    book.doc(
        "comment-with-double-dash",
        INLINE_LIT + " CommonMark 0.31.2 comments may contain `--`.",
        "x <!-- a -- {{ b }} -->",
        M("{{ b }}", "b", literal=True),
    )
    book.doc(
        "comment-empty-form",
        "CommonMark 0.31.2: `<!-->` is a complete comment, so the "
        "marker after it is surrounding text.",
        "x <!--> {{ a }} -->",
        M("{{ a }}", "a"),
    )
    book.doc(
        "inline-tag-over-lines",
        INLINE_LIT + " An inline tag may span lines.",
        'Text <span\ntitle="{{ a }}">',
        M("{{ a }}", "a", literal=True),
    )
    book.doc(
        "inline-tag-unquoted-attribute", INLINE_LIT, "x <a b={{a}}>", M("{{a}}", "a", literal=True)
    )
    book.doc(
        "autolink-scheme-too-short",
        "CommonMark: a URI scheme has 2-32 characters, so `<a:...>` is neither autolink nor tag.",
        "<a:{{b}}>",
        M("{{b}}", "b"),
    )
    book.doc("autolink-two-letter-scheme", INLINE_LIT, "<ab:{{b}}>", M("{{b}}", "b", literal=True))
    book.doc(
        "code-span-longer-run",
        INLINE_LIT + " A run of two backticks closes only at a run of two.",
        "``{{ a }}` {{ b }}``",
        M("{{ a }}", "a", literal=True),
        M("{{ b }}", "b", literal=True),
    )
    book.doc(
        "code-span-unmatched-run",
        "CommonMark: a backtick run without an equal run is text.",
        "x ```{{ a }}``",
        M("{{ a }}", "a"),
    )
    book.doc(
        "code-span-marker-over-lines", INLINE_LIT, "`{{ a\n}}`", M("{{ a\n}}", "a", literal=True)
    )
    book.doc("code-span-invalid-over-lines", "syntax.md rule 10.", "`{{ a\nb }}`")
    book.doc(
        "two-code-spans-independent",
        'Spec: "Read those spans independently."',
        "`{{ a }}` `{{ b }}`",
        M("{{ a }}", "a", literal=True),
        M("{{ b }}", "b", literal=True),
    )
    book.doc(
        "math-cuts-marker",
        NOT_HIDE + " The math span starts first and ends at its first qualifying `$`.",
        "${{ a$b }}$",
    )
    book.doc("math-hides-interaction", "syntax.md rule 10.", "$?[A|B]$")
    book.doc("heading-code-span", INLINE_LIT, "# `{{ a }}`", M("{{ a }}", "a", literal=True))
    book.doc(
        "heading-inline-tag",
        INLINE_LIT,
        '# <span title="{{ a }}">',
        M("{{ a }}", "a", literal=True),
    )


def build_lazy_and_type7(book: CaseBook) -> None:
    type7 = 'CommonMark 0.31.2, HTML block start condition 7: "a complete open tag (with any '
    type7 += 'tag name other than pre, script, style, or textarea) or a complete closing tag" '
    type7 += "alone on its line. "
    book.doc(
        "html7-closing-pre-tag",
        type7 + "So `</pre>` starts an ordinary HTML block and "
        "the backticks are no code span (syntax.md rule 17).",
        "</pre>\n`{{ a }}`",
        M("{{ a }}", "a"),
    )
    book.doc(
        "html7-closing-script-holds-next-line",
        type7 + "Inside an HTML block no new "
        "block starts, so the list line is block text, not a `<textarea>` block.",
        "</script>\n1. <textarea> {{ a }}",
        M("{{ a }}", "a"),
    )
    book.doc(
        "html7-self-closing-pre-excluded",
        type7 + "`<pre/>` is an open tag named pre "
        "and not type 1 either, so this is a paragraph with a code span.",
        "<pre/>\n`{{ a }}`",
        M("{{ a }}", "a", literal=True),
    )
    lazy = "CommonMark: a line indented four or more columns cannot start a block while a "
    lazy += "paragraph is open, so it is a lazy continuation of the quoted paragraph. "
    lazy += CONTAINER
    book.doc("lazy-indented-comment-start", lazy, "> a\n    <!-- {{ b }}", M("{{ b }}", "b"))
    book.doc("lazy-indented-fence-start", lazy, "> a\n\t``` {{ b }}", M("{{ b }}", "b"))
    book.doc("lazy-indented-pre-in-list", lazy, "   * x\n\t<pre> {{ b }}", M("{{ b }}", "b"))
    book.doc(
        "quote-tab-then-raw-block",
        RAW_BLOCK + " A tab after `>` leaves the tag indented less than four columns.",
        ">\t<textarea> {{ a }}\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "indented-quote-lookalike",
        BLOCK_LIT + " Four spaces before `>` make indented code, not a quote.",
        "    > {{ a }}",
    )


def build_tabs_and_definitions(book: CaseBook) -> None:
    book.doc(
        "quote-space-tab-raw-block",
        RAW_BLOCK + " After `> ` a tab reaches column 4, "
        "leaving the tag indented two columns, so it starts a `<pre>` block; the blank "
        "line ends the quote and with it the block.",
        "> \t<pre> {{ a }}\n\n{{ b }}",
        M("{{ b }}", "b"),
        M("{{ a }}", "a", literal=True, context="html-block"),
    )
    book.doc(
        "definition-paragraph-blocks-type7",
        "CommonMark: a link reference definition is "
        "read from a paragraph, and a type 7 tag cannot interrupt that paragraph, so "
        "`<span>` is inline HTML and the backticks a code span.",
        "[ref]: /url\n<span>\n`{{ a }}`",
        M("{{ a }}", "a", literal=True),
    )


LESSON = """# Lesson 2: {{ What would you like to learn? }}

Ask which level the user prefers.
?[{{ level }} Beginner//b | Intermediate//i | ...Describe your level]

> Tip: the template `{{ level }}` is read from memory.
> ?[%{{ goals }} Projects || Exams || Fun]

- Write `print("{{ x }}")` first.
- Then read [the guide](https://example.com/{{guide}} "About {{ topic }}").

```python {{ lang }}
name = "{{ not_reported }}"
```

<div class="{{ css }}">
Welcome back, {{ user name }}!
</div>

<!-- {{ hidden }} -->

Escaped: \\{{ not a marker }} and broken {{ }} and {{ open
"""


def build_lesson(book: CaseBook) -> None:
    book.doc(
        "lesson-mixed-document",
        "syntax.md rules 2-22 together: headings, interactions "
        "with bindings and values, quotes, lists, code spans, link resources, a fence with "
        "an info string, an ordinary and a raw HTML block, escapes, invalid and unclosed "
        "markers, with offsets across all blocks.",
        LESSON,
        M("{{ What would you like to learn? }}", "What would you like to learn?"),
        M("{{ level }}", "level", role="binding", nth=1),
        M("{{ level }}", "level", literal=True, nth=2),
        M("%{{ goals }}", "goals", role="binding", legacy=True),
        M("{{ x }}", "x", literal=True),
        M("{{guide}}", "guide", literal=True),
        M("{{ topic }}", "topic", literal=True),
        M("{{ lang }}", "lang", literal=True),
        M("{{ css }}", "css", literal=True),
        M("{{ user name }}", "user name"),
        X(
            "?[{{ level }} Beginner//b | Intermediate//i | ...Describe your level]",
            [("Beginner", "b"), ("Intermediate", "i")],
            binding="level",
            input="Describe your level",
        ),
        X(
            "?[%{{ goals }} Projects || Exams || Fun]",
            ["Projects", "Exams", "Fun"],
            binding="goals",
            multiple=True,
        ),
        I("{{ }}", "empty"),
        I("{{ open", "unclosed"),
        M("{{ hidden }}", "hidden", literal=True, context="html-comment"),
    )
    book.doc(
        "two-unclosed-paragraphs",
        BOUNDARY,
        "{{ a\n\n{{ b",
        I("{{ a", "unclosed"),
        I("{{ b", "unclosed"),
    )


def build_inline_fidelity(book: CaseBook) -> None:
    link = "CommonMark 0.31.2 links; syntax.md rule 9: the resource of an inline link is literal."
    book.doc(
        "link-destination-balanced-parens",
        link + " Balanced parentheses belong to the destination.",
        "[x](/u({{a}}))",
        M("{{a}}", "a", literal=True),
    )
    book.doc(
        "link-destination-padded",
        link + " Spaces around the destination are allowed.",
        "[a]( /u/{{b}} )",
        M("{{b}}", "b", literal=True),
    )
    book.doc(
        "link-title-next-line",
        link + " The title may follow on the next line.",
        '[a](/u/{{b}}\n"{{ c }}")',
        M("{{b}}", "b", literal=True),
        M("{{ c }}", "c", literal=True),
    )
    book.doc(
        "link-title-escaped-quotes",
        link,
        '[x](/u "a \\"{{ b }}\\"")',
        M("{{ b }}", "b", literal=True),
    )
    book.doc(
        "link-unclosed-resource",
        link + " Without `)` there is no link.",
        "[a](/u/{{b}}",
        M("{{b}}", "b"),
    )
    book.doc(
        "link-text-code-span-bracket",
        link + " A `]` inside a code span does not end the link text.",
        "[`]`](/u/{{a}})",
        M("{{a}}", "a", literal=True),
    )
    book.doc(
        "link-text-nested-brackets", link, "[a [b] c](/u/{{d}})", M("{{d}}", "d", literal=True)
    )
    book.doc(
        "link-inside-link",
        link + " Links cannot contain links: the inner one is a link, "
        "the outer brackets and parentheses are text.",
        "[a [b](/u/{{c}}) d](/v/{{e}})",
        M("{{c}}", "c", literal=True),
        M("{{e}}", "e"),
    )
    book.doc(
        "image-inside-link",
        link + " An image may sit in a link's text.",
        "[![i](/i/{{a}})](/u/{{b}})",
        M("{{a}}", "a", literal=True),
        M("{{b}}", "b", literal=True),
    )
    tag = "CommonMark 0.31.2 raw HTML; syntax.md rule 9: complete tags are literal."
    book.doc("tag-self-closing", tag, "x <a href='{{a}}'/>", M("{{a}}", "a", literal=True))
    book.doc("tag-uppercase", tag, 'x <A HREF="{{a}}">', M("{{a}}", "a", literal=True))
    book.doc(
        "tag-bare-attribute", tag, "x <input disabled title={{a}}>", M("{{a}}", "a", literal=True)
    )
    book.doc(
        "tag-value-over-lines",
        tag + " The marker's line break is edge padding.",
        'x <a title="{{\na}}">',
        M("{{\na}}", "a", literal=True),
    )
    book.doc(
        "tag-invalid-attribute-name",
        tag + " `{{b}}` is no attribute name, so this is text.",
        "x <a {{b}}>",
        M("{{b}}", "b"),
    )
    book.doc(
        "tag-invalid-name",
        tag + " A tag name starts with a letter.",
        "x <1a title={{b}}>",
        M("{{b}}", "b"),
    )
    book.doc(
        "autolink-uppercase-scheme",
        INLINE_LIT,
        "<HTTP://x.org/{{a}}>",
        M("{{a}}", "a", literal=True),
    )
    book.doc(
        "code-span-beats-link",
        "syntax.md rule 3 and CommonMark: the code span starts "
        "before the link resource, so there is no link.",
        "[`x](/u/{{a}})`",
        M("{{a}}", "a", literal=True),
    )
