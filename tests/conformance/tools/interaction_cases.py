"""Interaction cases: `?[ ... ]`, its binding, choices and input."""

from __future__ import annotations

from casegen import CaseBook, I, M, X

OPEN = "syntax.md rule 12: `?[` starts an interaction; it closes at the first `]` outside "
OPEN += "markers, within the same inline text."
SPLIT = "syntax.md rule 15: the first separator decides the mode; each choice is trimmed; "
SPLIT += "empty choices are dropped."
VALUE = "syntax.md rule 15: `label//value` splits at the first `//`, the label trimmed, the "
VALUE += "value kept as written."
INPUT = "syntax.md rule 15: at the first `...` the rest splits into choices and an input "
INPUT += "hint (the trimmed remainder)."
BIND = 'Spec: "Only a leading answer binding, after optional whitespace padding, identifies '
BIND += 'the question for the current interaction."; syntax.md rule 14.'
IN_OPTION = 'Spec: "A marker within an option does not bind that answer."; syntax.md rule 14.'
ATOMIC = 'Spec: "Inside a marker, ] does not close the interaction, | does not split options, '
ATOMIC += '// does not introduce an option value, and ... does not introduce an input field."'
LEGACY = 'Spec: "The legacy leading binding %{{name}} remains supported for compatibility."; '
LEGACY += "scan contract: the legacy span includes the `%`."
UNCLOSED_AFTER = "syntax.md rule 6: the unclosed marker after the interaction owns only the rest."


def build() -> CaseBook:
    book = CaseBook("interaction")
    _seed_examples(book)
    _choices(book)
    _values(book)
    _input(book)
    _bindings(book)
    _boundaries(book)
    build_more(book)
    build_priority(book)
    build_lookalikes(book)
    return book


def _seed_examples(book: CaseBook) -> None:
    book.doc(
        "seed-plain-options",
        'Spec: "ordinary interactions can simply use ?[Option A | Option B]"',
        "?[Option A | Option B]",
        X("?[Option A | Option B]", ["Option A", "Option B"]),
    )
    book.doc(
        "seed-input-hint",
        'Spec: "or ?[...input hint]"',
        "?[...input hint]",
        X("?[...input hint]", input="input hint"),
    )
    book.doc(
        "seed-collect-binding",
        'Spec: "?[{{ What would you like to learn? }} Python | JavaScript | ...Another topic]"',
        "Ask which topic the user wants to learn, and save the answer for later lessons.\n"
        "?[{{ What would you like to learn? }} Python | JavaScript | ...Another topic]",
        M("{{ What would you like to learn? }}", "What would you like to learn?", role="binding"),
        X(
            "?[{{ What would you like to learn? }} Python | JavaScript | ...Another topic]",
            ["Python", "JavaScript"],
            binding="What would you like to learn?",
            input="Another topic",
        ),
    )
    which = "{{ Which [path] | level//hint...? }}"
    key = "Which [path] | level//hint...?"
    book.doc(
        "seed-which-path",
        'Spec: "Both markers use the exact key Which [path] | level//hint...?. Only the '
        'operators after the answer binding describe the buttons."',
        "Ask which learning path and level the user prefers.\n\n"
        f"?[{which} Concepts//concepts | Examples//examples]\n\n"
        f"Use {which} when adapting the next document.",
        M(which, key, role="binding", nth=1),
        M(which, key, nth=2),
        X(
            f"?[{which} Concepts//concepts | Examples//examples]",
            [("Concepts", "concepts"), ("Examples", "examples")],
            binding=key,
        ),
    )
    book.doc(
        "seed-which-path-one-paragraph",
        "The spec's example with its three lines in one paragraph (syntax.md rule 12).",
        "Ask which learning path and level the user prefers.\n"
        f"?[{which} Concepts//concepts | Examples//examples]\n"
        f"Use {which} when adapting the next document.",
        M(which, key, role="binding", nth=1),
        M(which, key, nth=2),
        X(
            f"?[{which} Concepts//concepts | Examples//examples]",
            [("Concepts", "concepts"), ("Examples", "examples")],
            binding=key,
        ),
    )
    book.doc(
        "seed-show-code-span",
        'Spec: "Show `{{` then ?[{{ q }} A|B] declares q and contains one interaction."',
        "Show `{{` then ?[{{ q }} A|B]",
        M("{{ q }}", "q", role="binding"),
        X("?[{{ q }} A|B]", ["A", "B"], binding="q"),
    )
    book.doc(
        "seed-key-not-interaction",
        'Spec: "{{ key ?[A|B] }} is one memory marker, not an interaction."',
        "Before {{ key ?[A|B] }} after",
        M("{{ key ?[A|B] }}", "key ?[A|B]"),
    )


def _choices(book: CaseBook) -> None:
    book.doc("single-three", SPLIT, "?[A|B|C]", X("?[A|B|C]", ["A", "B", "C"]))
    book.doc(
        "single-one-choice",
        SPLIT + " No separator: one choice, single mode.",
        "?[Continue]",
        X("?[Continue]", ["Continue"]),
    )
    book.doc(
        "multiple-three",
        SPLIT + " `||` means multiple selection.",
        "?[A||B||C]",
        X("?[A||B||C]", ["A", "B", "C"], multiple=True),
    )
    book.doc(
        "multiple-spaced",
        SPLIT,
        "?[ Red || Green || Blue ]",
        X("?[ Red || Green || Blue ]", ["Red", "Green", "Blue"], multiple=True),
    )
    book.doc(
        "multiple-triple-pipe",
        "syntax.md rule 21: `A|||B` gives `A` and `|B`.",
        "?[A|||B]",
        X("?[A|||B]", ["A", "|B"], multiple=True),
    )
    book.doc(
        "multiple-four-pipes",
        "syntax.md rule 21: split at each `||` from the left; the empty choice between is dropped.",
        "?[A||||B]",
        X("?[A||||B]", ["A", "B"], multiple=True),
    )
    book.doc(
        "single-then-double-is-text",
        "syntax.md rule 21: in single-choice mode a run of two or more `|` is text.",
        "?[A|B||C]",
        X("?[A|B||C]", ["A", "B||C"]),
    )
    book.doc(
        "multiple-then-single-is-text",
        "syntax.md rule 15: in `||` mode only `||` splits.",
        "?[A||B|C]",
        X("?[A||B|C]", ["A", "B|C"], multiple=True),
    )
    book.doc(
        "single-with-triple-run",
        "syntax.md rule 21.",
        "?[A|B|||C]",
        X("?[A|B|||C]", ["A", "B|||C"]),
    )
    book.doc("empty-interaction", "Scan contract: `choices` may be empty.", "?[]", X("?[]"))
    book.doc("blank-interaction", SPLIT, "?[   ]", X("?[   ]"))
    book.doc("empty-choices-dropped", SPLIT, "?[A| |B|]", X("?[A| |B|]", ["A", "B"]))
    book.doc("leading-separator", SPLIT, "?[|A|B]", X("?[|A|B]", ["A", "B"]))
    book.doc("only-single-separators", SPLIT, "?[ | ]", X("?[ | ]"))
    book.doc(
        "only-double-separator",
        SPLIT + " The mode is still multiple.",
        "?[||]",
        X("?[||]", multiple=True),
    )
    book.doc(
        "choice-trim-unicode-space",
        "syntax.md rule 21: trimming uses the spec's whitespace set.",
        "?[\u3000A\u3000|\u00a0B\u2003]",
        X("?[\u3000A\u3000|\u00a0B\u2003]", ["A", "B"]),
    )
    book.doc(
        "choices-keep-inner-spaces",
        SPLIT,
        "?[Yes, please | No  thanks]",
        X("?[Yes, please | No  thanks]", ["Yes, please", "No  thanks"]),
    )
    book.doc(
        "emoji-choices",
        SPLIT + " Offsets count code points.",
        "Fruit 🍓: ?[🍎 Apple | 🍌 Banana]",
        X("?[🍎 Apple | 🍌 Banana]", ["🍎 Apple", "🍌 Banana"]),
    )
    book.doc(
        "choice-with-line-break",
        "syntax.md rule 19: line endings inside choices are kept as written.",
        "?[First line\nsecond line|B]",
        X("?[First line\nsecond line|B]", ["First line\nsecond line", "B"]),
    )
    book.doc(
        "choices-over-lines",
        OPEN + " It may span lines of one paragraph.",
        "?[A |\nB |\nC]",
        X("?[A |\nB |\nC]", ["A", "B", "C"]),
    )
    book.doc(
        "choices-over-indented-lines",
        "syntax.md rule 19: continuation-line indentation is not part of the inline text.",
        "?[A |\n   B]",
        X("?[A |\n   B]", ["A", "B"]),
    )
    book.doc(
        "choices-crlf", "syntax.md rules 1 and 12.", "?[A |\r\nB]", X("?[A |\r\nB]", ["A", "B"])
    )


def _values(book: CaseBook) -> None:
    book.doc(
        "values-basic", VALUE, "?[Yes//y|No//n]", X("?[Yes//y|No//n]", [("Yes", "y"), ("No", "n")])
    )
    book.doc(
        "value-empty-label",
        "syntax.md rule 21: `//v` keeps a choice with an empty label.",
        "?[//v]",
        X("?[//v]", [("", "v")]),
    )
    book.doc(
        "value-empty",
        "syntax.md rule 21: `A//` has an empty value.",
        "?[A//]",
        X("?[A//]", [("A", "")]),
    )
    book.doc(
        "value-kept-as-written",
        VALUE,
        "?[ Label // value ]",
        X("?[ Label // value ]", [("Label", " value")]),
    )
    book.doc("value-first-slashes", VALUE, "?[a//b//c]", X("?[a//b//c]", [("a", "b//c")]))
    book.doc(
        "value-url",
        VALUE,
        "?[Site//https://example.com|Other]",
        X("?[Site//https://example.com|Other]", [("Site", "https://example.com"), "Other"]),
    )
    book.doc(
        "values-multiple",
        VALUE + " Values work in `||` mode too.",
        "?[Red//r || Blue//b]",
        X("?[Red//r || Blue//b]", [("Red", "r"), ("Blue", "b")], multiple=True),
    )
    book.doc(
        "value-mixed-with-plain",
        VALUE,
        "?[Yes//y | Maybe | No//n]",
        X("?[Yes//y | Maybe | No//n]", [("Yes", "y"), "Maybe", ("No", "n")]),
    )
    book.doc(
        "single-slash-is-text",
        VALUE + " A single `/` is text.",
        "?[A/B|C]",
        X("?[A/B|C]", ["A/B", "C"]),
    )


def _input(book: CaseBook) -> None:
    book.doc(
        "input-empty-hint",
        INPUT + " `...` present means an input field exists, even with an empty hint.",
        "?[...]",
        X("?[...]", input=""),
    )
    book.doc(
        "input-with-choices",
        INPUT,
        "?[A | B | ...Other]",
        X("?[A | B | ...Other]", ["A", "B"], input="Other"),
    )
    book.doc(
        "input-hint-trimmed",
        INPUT,
        "?[...   spaced hint   ]",
        X("?[...   spaced hint   ]", input="spaced hint"),
    )
    book.doc("input-first-dots", INPUT, "?[A...B...C]", X("?[A...B...C]", ["A"], input="B...C"))
    book.doc("input-four-dots", INPUT, "?[....x]", X("?[....x]", input=".x"))
    book.doc(
        "input-multiple",
        INPUT,
        "?[A||B||...Other]",
        X("?[A||B||...Other]", ["A", "B"], input="Other", multiple=True),
    )
    book.doc(
        "input-hint-keeps-pipes",
        INPUT + " The hint is not split.",
        "?[...a | b]",
        X("?[...a | b]", input="a | b"),
    )
    book.doc(
        "input-hint-keeps-slashes",
        INPUT,
        "?[...http://example.com]",
        X("?[...http://example.com]", input="http://example.com"),
    )
    book.doc(
        "input-after-value",
        INPUT + " " + VALUE,
        "?[A//a...b]",
        X("?[A//a...b]", [("A", "a")], input="b"),
    )
    book.doc(
        "input-hint-line-break",
        "syntax.md rule 19: line endings inside hints are kept as written.",
        "?[...Tell us\nmore]",
        X("?[...Tell us\nmore]", input="Tell us\nmore"),
    )
    book.doc(
        "input-hint-crlf",
        "syntax.md rules 1 and 19.",
        "?[...a\r\nb]",
        X("?[...a\r\nb]", input="a\r\nb"),
    )
    book.doc(
        "input-hint-unicode-trim",
        "syntax.md rule 21.",
        "?[...\u00a0hint\u3000]",
        X("?[...\u00a0hint\u3000]", input="hint"),
    )
    book.doc(
        "input-no-dots",
        INPUT + " Without `...` there is no input.",
        "?[A|B]",
        X("?[A|B]", ["A", "B"]),
    )
    book.doc(
        "input-dots-in-marker",
        ATOMIC,
        "?[A {{ wait... }}|B]",
        M("{{ wait... }}", "wait..."),
        X("?[A {{ wait... }}|B]", ["A {{ wait... }}", "B"]),
    )
    book.doc(
        "input-hint-holds-marker",
        IN_OPTION + " A marker in the hint is a reference.",
        "?[...About {{ topic }}]",
        M("{{ topic }}", "topic"),
        X("?[...About {{ topic }}]", input="About {{ topic }}"),
    )


def _bindings(book: CaseBook) -> None:
    book.doc(
        "binding-only",
        BIND,
        "?[{{ q }}]",
        M("{{ q }}", "q", role="binding"),
        X("?[{{ q }}]", binding="q"),
    )
    book.doc(
        "binding-with-input",
        BIND,
        "?[{{ q }}...Your answer]",
        M("{{ q }}", "q", role="binding"),
        X("?[{{ q }}...Your answer]", binding="q", input="Your answer"),
    )
    book.doc(
        "binding-empty-hint",
        BIND,
        "?[{{ q }} ...]",
        M("{{ q }}", "q", role="binding"),
        X("?[{{ q }} ...]", binding="q", input=""),
    )
    book.doc(
        "binding-leading-spaces",
        BIND,
        "?[   {{ q }} A|B]",
        M("{{ q }}", "q", role="binding"),
        X("?[   {{ q }} A|B]", ["A", "B"], binding="q"),
    )
    book.doc(
        "binding-leading-newline",
        BIND,
        "?[\n{{ q }} A|B]",
        M("{{ q }}", "q", role="binding"),
        X("?[\n{{ q }} A|B]", ["A", "B"], binding="q"),
    )
    book.doc(
        "binding-unpadded",
        BIND,
        "?[{{q}}A|B]",
        M("{{q}}", "q", role="binding"),
        X("?[{{q}}A|B]", ["A", "B"], binding="q"),
    )
    book.doc(
        "binding-multiple",
        BIND,
        "?[{{ skills }} Python || SQL || Git]",
        M("{{ skills }}", "skills", role="binding"),
        X(
            "?[{{ skills }} Python || SQL || Git]",
            ["Python", "SQL", "Git"],
            binding="skills",
            multiple=True,
        ),
    )
    book.doc(
        "binding-then-reference",
        BIND + " A later marker is a reference.",
        "?[{{ x }} A|B] and {{ x }}",
        M("{{ x }}", "x", role="binding", nth=1),
        M("{{ x }}", "x", nth=2),
        X("?[{{ x }} A|B]", ["A", "B"], binding="x"),
    )
    book.doc(
        "marker-after-text-not-binding",
        IN_OPTION,
        "?[A {{ q }}|B]",
        M("{{ q }}", "q"),
        X("?[A {{ q }}|B]", ["A {{ q }}", "B"]),
    )
    book.doc(
        "marker-as-option",
        IN_OPTION,
        "?[A|{{ x }}|B]",
        M("{{ x }}", "x"),
        X("?[A|{{ x }}|B]", ["A", "{{ x }}", "B"]),
    )
    book.doc(
        "two-leading-markers",
        BIND + " Only the first marker binds.",
        "?[{{ a }}{{ b }} X|Y]",
        M("{{ a }}", "a", role="binding"),
        M("{{ b }}", "b"),
        X("?[{{ a }}{{ b }} X|Y]", ["{{ b }} X", "Y"], binding="a"),
    )
    book.doc(
        "binding-key-with-operators",
        ATOMIC,
        "?[{{ a ] b | c // d }} X]",
        M("{{ a ] b | c // d }}", "a ] b | c // d", role="binding"),
        X("?[{{ a ] b | c // d }} X]", ["X"], binding="a ] b | c // d"),
    )
    book.doc(
        "binding-key-with-dots",
        ATOMIC,
        "?[{{ a...b }} X]",
        M("{{ a...b }}", "a...b", role="binding"),
        X("?[{{ a...b }} X]", ["X"], binding="a...b"),
    )
    book.doc(
        "legacy-binding",
        LEGACY,
        "?[%{{ q }} A|B]",
        M("%{{ q }}", "q", role="binding", legacy=True),
        X("?[%{{ q }} A|B]", ["A", "B"], binding="q"),
    )
    book.doc(
        "legacy-binding-padded",
        LEGACY,
        "?[ %{{q}} A]",
        M("%{{q}}", "q", role="binding", legacy=True),
        X("?[ %{{q}} A]", ["A"], binding="q"),
    )
    book.doc(
        "legacy-binding-input",
        LEGACY,
        "?[%{{name}}...Your name]",
        M("%{{name}}", "name", role="binding", legacy=True),
        X("?[%{{name}}...Your name]", binding="name", input="Your name"),
    )
    book.doc(
        "legacy-binding-only",
        LEGACY,
        "?[%{{ q }}]",
        M("%{{ q }}", "q", role="binding", legacy=True),
        X("?[%{{ q }}]", binding="q"),
    )
    book.doc(
        "percent-not-leading",
        "syntax.md rule 14: `%{{key}}` binds only at the very "
        "start; elsewhere `%` is choice text and the marker a reference.",
        "?[A|%{{q}}]",
        M("{{q}}", "q"),
        X("?[A|%{{q}}]", ["A", "%{{q}}"]),
    )
    book.doc(
        "percent-space-not-legacy",
        "syntax.md rule 14: `% {{` is neither `{{key}}` nor `%{{key}}` at the very start.",
        "?[% {{ q }} A]",
        M("{{ q }}", "q"),
        X("?[% {{ q }} A]", ["% {{ q }} A"]),
    )
    book.doc(
        "invalid-legacy-binding",
        "syntax.md rule 22: an invalid legacy `%{{}}` binds nothing, and its span "
        "excludes the `%`; invalid markers are literal text (rule 6), so it stays in the "
        "choice.",
        "?[%{{}} A|B]",
        I("{{}}", "empty"),
        X("?[%{{}} A|B]", ["%{{}} A", "B"]),
    )
    book.doc(
        "invalid-leading-marker",
        "syntax.md rules 14 and 22: only a valid marker binds; the invalid one is "
        "reported and stays literal choice text.",
        "?[{{ }} A|B]",
        I("{{ }}", "empty"),
        X("?[{{ }} A|B]", ["{{ }} A", "B"]),
    )
    book.doc(
        "invalid-line-break-binding",
        "syntax.md rules 6 and 22.",
        "?[{{a\nb}} X]",
        I("{{a\nb}}", "line-break"),
        X("?[{{a\nb}} X]", ["{{a\nb}} X"]),
    )
    book.doc(
        "invalid-legacy-control",
        "syntax.md rules 6 and 22.",
        "?[%{{a\u0001}} X]",
        I("{{a\u0001}}", "control-character"),
        X("?[%{{a\u0001}} X]", ["%{{a\u0001}} X"]),
    )
    book.doc(
        "invalid-in-option",
        "syntax.md rule 22.",
        "?[A|{{ }}|B]",
        I("{{ }}", "empty"),
        X("?[A|{{ }}|B]", ["A", "{{ }}", "B"]),
    )
    book.doc(
        "escaped-brace-no-binding",
        "syntax.md rule 18: inside an interaction an escaped `{` still prevents a marker; "
        "the choice keeps its text as written.",
        "?[\\{{ a }} X|Y]",
        X("?[\\{{ a }} X|Y]", ["\\{{ a }} X", "Y"]),
    )


def _boundaries(book: CaseBook) -> None:
    book.doc("no-closing-bracket", "syntax.md rule 12: no `]`, no interaction.", "?[A|B")
    book.doc(
        "no-closing-bracket-marker",
        "syntax.md rule 12: no `]`, no interaction; the marker is a reference.",
        "?[{{ q }} A|B",
        M("{{ q }}", "q"),
    )
    book.doc(
        "unclosed-marker-in-interaction",
        "syntax.md rule 13: an unclosed marker consumes the rest of the inline text, so "
        "the interaction has no `]`.",
        "?[{{ q A|B]",
        I("{{ q A|B]", "unclosed"),
    )
    book.doc(
        "unclosed-marker-in-option",
        "syntax.md rule 13.",
        "Pick ?[A|{{ b] now",
        I("{{ b] now", "unclosed"),
    )
    book.doc(
        "link-after-question-mark",
        "syntax.md rules 12 and 25: `]` followed by `(` is a link after a literal `?`.",
        "?[A|B](https://example.com)",
    )
    book.doc(
        "link-cancel-keeps-marker",
        "syntax.md rule 25: the cancelled interaction binds nothing; the marker in the "
        "link text is a reference.",
        "?[{{ q }} A|B](https://example.com)",
        M("{{ q }}", "q"),
    )
    book.doc(
        "paren-cancels-invalid-link",
        "syntax.md rule 25: `]` followed directly by `(` always cancels, even when what "
        "follows is not a valid link.",
        "?[{{ q }} A|B](not a link",
        M("{{ q }}", "q"),
    )
    book.doc(
        "space-before-paren",
        "syntax.md rule 25 applies only to `(` directly after.",
        "?[A|B] (note)",
        X("?[A|B]", ["A", "B"]),
    )
    book.doc("escaped-question-mark", "syntax.md rule 12: the `?` must not be escaped.", "\\?[A|B]")
    book.doc(
        "escaped-backslash-question",
        "syntax.md rules 12 and 18: `\\\\` is an escaped "
        "backslash, so the `?` after it is not escaped.",
        "\\\\?[A|B]",
        X("?[A|B]", ["A", "B"]),
    )
    book.doc(
        "escaped-bracket-closes",
        "syntax.md rule 18: `\\]` closes the interaction like any `]`.",
        "?[A\\]|B]",
        X("?[A\\]", ["A\\"]),
    )
    book.doc("first-bracket-closes", OPEN, "?[A [b] C]", X("?[A [b]", ["A [b"]))
    book.doc(
        "nested-question-text",
        OPEN + " Inside, only markers are special.",
        "?[A ?[B] C]",
        X("?[A ?[B]", ["A ?[B"]),
    )
    book.doc("double-open-bracket", OPEN, "?[[A]", X("?[[A]", ["[A"]))
    book.doc("extra-closing-bracket", OPEN, "?[A|B]]", X("?[A|B]", ["A", "B"]))
    book.doc("double-question-mark", OPEN, "Really??[Yes|No]", X("?[Yes|No]", ["Yes", "No"]))
    book.doc("space-after-question", OPEN + " `? [` is not `?[`.", "? [A|B]")
    book.doc(
        "code-span-inside-not-special",
        "syntax.md rules 3 and 13: inside an interaction only markers are special, so a "
        "backtick does not protect `]`.",
        "?[`a]` | B]",
        X("?[`a]", ["`a"]),
    )
    book.doc(
        "marker-bracket-does-not-close",
        ATOMIC,
        "?[A|{{ x] }}|B]",
        M("{{ x] }}", "x]"),
        X("?[A|{{ x] }}|B]", ["A", "{{ x] }}", "B"]),
    )
    book.doc(
        "two-interactions",
        OPEN,
        "?[A|B] then ?[C||D]",
        X("?[A|B]", ["A", "B"]),
        X("?[C||D]", ["C", "D"], multiple=True),
    )
    book.doc("interaction-in-sentence", OPEN, "Pick one: ?[A|B], please.", X("?[A|B]", ["A", "B"]))
    book.doc(
        "interaction-across-blank-line",
        "syntax.md rule 12: within the same inline text; a blank line ends it.",
        "?[A|\n\nB]",
    )
    book.doc(
        "interaction-then-unclosed",
        UNCLOSED_AFTER,
        "?[A|B] {{ a",
        X("?[A|B]", ["A", "B"]),
        I("{{ a", "unclosed"),
    )
    book.doc(
        "unclosed-before-interaction",
        'Spec: "An unclosed marker consumes the remaining text as literal source; do not '
        'discover controls inside it."',
        "{{ a ?[A|B]",
        I("{{ a ?[A|B]", "unclosed"),
    )
    book.doc(
        "interaction-after-marker",
        "syntax.md rule 3.",
        "{{ a }} ?[{{ b }} X]",
        M("{{ a }}", "a"),
        M("{{ b }}", "b", role="binding"),
        X("?[{{ b }} X]", ["X"], binding="b"),
    )
    book.doc(
        "interaction-cjk-offsets",
        "Scan contract: code point offsets.",
        "选择：?[{{ 语言 }} 中文 | English]",
        M("{{ 语言 }}", "语言", role="binding"),
        X("?[{{ 语言 }} 中文 | English]", ["中文", "English"], binding="语言"),
    )
    book.doc(
        "interaction-astral-offsets",
        "Scan contract: code point offsets.",
        "🚀🚀 ?[{{ q }} 🅰|🅱]",
        M("{{ q }}", "q", role="binding"),
        X("?[{{ q }} 🅰|🅱]", ["🅰", "🅱"], binding="q"),
    )


def build_more(book: CaseBook) -> None:
    book.doc(
        "double-percent-not-legacy",
        "syntax.md rule 14: `%%{{` is not `%{{` at the very start.",
        "?[%%{{ q }} A]",
        M("{{ q }}", "q"),
        X("?[%%{{ q }} A]", ["%%{{ q }} A"]),
    )
    book.doc(
        "binding-then-value",
        BIND + " " + VALUE,
        "?[{{ q }}//v]",
        M("{{ q }}", "q", role="binding"),
        X("?[{{ q }}//v]", [("", "v")], binding="q"),
    )
    book.doc(
        "binding-tab-padding",
        BIND,
        "?[\t{{ q }} A]",
        M("{{ q }}", "q", role="binding"),
        X("?[\t{{ q }} A]", ["A"], binding="q"),
    )
    book.doc(
        "slashes-only-choice",
        SPLIT + " The choice `//` is not empty, so it is kept with an empty label and value.",
        "?[A|//]",
        X("?[A|//]", ["A", ("", "")]),
    )
    book.doc(
        "value-trailing-slashes",
        VALUE + " The choice is trimmed before it is split.",
        "?[A // |B]",
        X("?[A // |B]", [("A", ""), "B"]),
    )
    book.doc(
        "hint-holds-bracket-in-marker",
        ATOMIC,
        "?[...See {{ a]b }}]",
        M("{{ a]b }}", "a]b"),
        X("?[...See {{ a]b }}]", input="See {{ a]b }}"),
    )
    book.doc("bracket-paren-in-choice", "syntax.md rule 25.", "?[A](B)]")
    book.doc(
        "bracket-then-newline-paren",
        "syntax.md rule 25 needs `(` directly after `]`.",
        "?[A|B]\n(x)",
        X("?[A|B]", ["A", "B"]),
    )
    book.doc(
        "dollars-in-choices",
        OPEN + " Inside, only markers are special.",
        "?[$5|$10]",
        X("?[$5|$10]", ["$5", "$10"]),
    )
    book.doc(
        "interaction-in-code-span-only",
        "syntax.md rule 3: the code span starts first.",
        "`?[A|B]` ?[C]",
        X("?[C]", ["C"]),
    )
    book.doc(
        "bindings-in-two-paragraphs",
        BIND,
        "?[{{ a }} X]\n\n?[{{ b }} Y|Z]",
        M("{{ a }}", "a", role="binding"),
        M("{{ b }}", "b", role="binding"),
        X("?[{{ a }} X]", ["X"], binding="a"),
        X("?[{{ b }} Y|Z]", ["Y", "Z"], binding="b"),
    )
    book.doc(
        "escaped-opener-before-binding",
        "syntax.md rule 18: the escaped `{` is text, so "
        "the marker after it is not at the very start.",
        "?[\\{{{ q }} A]",
        M("{{ q }}", "q"),
        X("?[\\{{{ q }} A]", ["\\{{{ q }} A"]),
    )


def build_priority(book: CaseBook) -> None:
    book.doc(
        "bracket-then-label",
        "syntax.md rules 12 and 25: only `(` directly after `]` "
        "cancels; a following `[x]` is a reference label after the interaction.",
        "?[A|B][x]\n\n[x]: /u",
        X("?[A|B]", ["A", "B"]),
    )
    book.doc(
        "escaped-pipe-still-splits",
        "syntax.md rules 13 and 18: inside an interaction "
        "only markers are special; escapes matter only for `{` (and `\\]` still closes).",
        "?[\\|A|B]",
        X("?[\\|A|B]", ["\\", "A", "B"]),
    )
    book.doc(
        "interaction-in-link-text",
        "syntax.md rule 3: the interaction starts first; its "
        "`]` is followed by `]`, not `(`, so rule 25 does not cancel it.",
        "[?[A|B]](url)",
        X("?[A|B]", ["A", "B"]),
    )
    book.doc(
        "binding-after-ideographic-space",
        BIND + " The padding is the spec's whitespace "
        "set, as for all trimming (syntax.md rule 21).",
        "?[\u3000{{ q }} A]",
        M("{{ q }}", "q", role="binding"),
        X("?[\u3000{{ q }} A]", ["A"], binding="q"),
    )


def build_lookalikes(book: CaseBook) -> None:
    literal = "syntax.md rules 3 and 10: a literal context that starts first holds the `?[`, and "
    literal += "literal contexts never open an interaction."
    book.doc("interaction-in-link-destination", literal, "[x](?[A|B])")
    book.doc("interaction-in-autolink", literal, "<https://x.org/?[A]>")
    book.doc(
        "marker-with-link-syntax-binds",
        ATOMIC + " `](` inside the marker cancels nothing.",
        "?[{{ a](b }} X]",
        M("{{ a](b }}", "a](b", role="binding"),
        X("?[{{ a](b }} X]", ["X"], binding="a](b"),
    )
    book.doc(
        "interaction-cut-by-list-item",
        OPEN + " A list item interrupts the paragraph.",
        "?[A|\n- B]",
    )
    book.doc(
        "ellipsis-character-is-text",
        INPUT + " U+2026 is not `...`.",
        "?[A|\u2026]",
        X("?[A|\u2026]", ["A", "\u2026"]),
    )
    book.doc(
        "fullwidth-bar-is-text",
        SPLIT + " U+FF5C is not `|`.",
        "?[A\uff5cB]",
        X("?[A\uff5cB]", ["A\uff5cB"]),
    )
    book.doc(
        "fullwidth-bracket-not-interaction",
        OPEN + " U+FF1F and U+FF3B are not `?[`.",
        "\uff1f\uff3bA|B]",
    )
    book.doc(
        "fixed-output-markers-read",
        "syntax.md rule 28: AI-Shifu's fixed output (`===text===`, `!===text!===`) is text "
        "to the syntax; the markers inside are read (markdown-flow 0.4.2 substitutes them).",
        "Say ===Hi {{ name }}=== and !===Bye {{ name }}!===",
        M("{{ name }}", "name", nth=1),
        M("{{ name }}", "name", nth=2),
    )
    book.doc(
        "fixed-output-interaction-read",
        "syntax.md rule 28: an interaction inside fixed output is an interaction "
        "(markdown-flow 0.4.2 cuts the line there).",
        "===?[{{ k }} A | B]===",
        M("{{ k }}", "k", role="binding"),
        X("?[{{ k }} A | B]", ["A", "B"], binding="k"),
    )
