"""Every message of mfls in English, by message id: the diagnostics' (an id is the code, or
`code.variant`), the course file's and structure.json's (`config.`, `structure.`), and the
features' (`part.` pieces put into other messages, `related.` related places, `hover.`,
`action.` code action titles, `inlay.`, `lens.` ...). A message is a `string.Template`:
`${name}` is an argument (`mfls.workspace.catalog.say`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from mfls.workspace import diagnostic_registry as codes

EN_MESSAGES: Final[Mapping[str, str]] = {
    # -- diagnostics: marker-empty
    codes.MARKER_EMPTY: (
        "This memory marker names no question, so it is plain text. Write the question between "
        "the braces, for example `{{ What would you like to learn? }}`."
    ),
    # -- diagnostics: marker-line-break
    codes.MARKER_LINE_BREAK_RUNS_ON: (
        "This marker is probably missing its `}}`: close it where the question ends. It "
        "${runs_on}, so the marker is plain text. Joining the lines would make one long, wrong "
        "question."
    ),
    codes.MARKER_LINE_BREAK: (
        "This question is broken across lines, so the marker is plain text. A question in a "
        "memory marker must fit on one line. Join the lines."
    ),
    # -- diagnostics: marker-control-character
    codes.MARKER_CONTROL_CHARACTER: (
        "This question contains an invisible control character${which}. It makes the marker "
        "plain text. Delete the character."
    ),
    # -- diagnostics: marker-unclosed
    codes.MARKER_UNCLOSED: (
        "This `{{` has no closing `}}` in its paragraph. Everything after it, to the end of "
        "the paragraph, is plain text.${hides} Close the marker with `}}`."
    ),
    # -- diagnostics: legacy-binding
    codes.LEGACY_BINDING: (
        "`%{{...}}` is the old binding syntax: write `{{ ${bare} }}`. It binds the same "
        "question. markdown-flow 0.3.1, 0.3.4 and 0.4.2 bind only `%{{...}}`: a course run by "
        "them keeps it (set `target` in mfcourse.toml)."
    ),
    # -- diagnostics: unbound-reference
    codes.UNBOUND_REFERENCE: (
        "No lesson asks ${short}, so the AI may lack the answer. The host does not provide it "
        "either. Bind it in an interaction (`?[${binding} ...]`), or tell the AI to ask for "
        "the answer or to use a stated default."
    ),
    codes.UNBOUND_REFERENCE_PAGE: (
        "No lesson asks ${short}, so the AI may lack the answer. The host does not provide it "
        "either, and the learner page reads no binding of this key: rename it to a key the "
        "page reads, such as `${readable}`, and bind that in an interaction (`?[${binding} "
        "...]`), or tell the AI to ask for the answer or to use a stated default."
    ),
    # -- diagnostics: read-before-asked
    codes.READ_BEFORE_ASKED: (
        "${short} is read here before it is asked. In course order the question is first bound "
        "${where}. Ask it earlier, or tell the AI what to do while the answer is missing."
    ),
    # -- diagnostics: near-miss
    codes.NEAR_MISS: (
        "Not bound in this course; did you mean ${near}? ${near_full} is ${how}; ${quoted} "
        "differs from it only in ${difference}, but a different text is a different question."
    ),
    # -- diagnostics: binding-in-reference
    codes.BINDING_IN_REFERENCE: (
        "A binding here grants no permission to save: bind the question in a lesson. This is a "
        "reference document (see `references` in mfcourse.toml), so it saves no answer to "
        "${quoted}."
    ),
    # -- diagnostics: reserved-key-binding
    codes.RESERVED_KEY_BINDING_PROVIDED: (
        "${short} is read-only: the host provides it. ${host} provides ${quoted}, so an "
        "interaction cannot save an answer to it: choose another question text, or read the "
        "provided value without binding it."
    ),
    codes.RESERVED_KEY_BINDING_PREFIX: (
        "Questions starting with `${prefix}` are reserved by ${host}. The platform rejects "
        "binding ${quoted}: choose another question text."
    ),
    # -- diagnostics: legacy-profile-key
    codes.LEGACY_PROFILE_KEY: (
        "${profile} is a legacy learner-profile key: keep `%{{...}}` here. ${host} still "
        "accepts `%{{...}}` bindings of its legacy learner-profile keys (${keys}) but rejects "
        "other bindings of questions starting with `${prefix}`. Do not convert it to `{{ "
        "${key} }}`: that form is such a binding, an error."
    ),
    # -- diagnostics: empty-interaction
    codes.EMPTY_INTERACTION: (
        "This interaction offers no choices and no `...` input field. markdown-flow 0.4.2 "
        "shows `?[{{ ${key} }}]` as one button that reads the value of ${quoted} (UNKNOWN "
        "while unset) and saves nothing. Add choices (`A | B`) or `...` for a text input."
    ),
    codes.EMPTY_INTERACTION_LEGACY: (
        "This interaction offers no choices and no `...` input field. markdown-flow 0.4.2 "
        "shows `?[%{{ ${key} }}]` as a text input with an empty hint; write `?[${binding} "
        "...]` to say so."
    ),
    # -- diagnostics: runtime-binding-ignored
    codes.RUNTIME_BINDING_IGNORED: (
        "${runtime} saves nothing here: write `${binding}`. It binds an answer only with "
        "`%{{...}}`: it saves no answer to ${quoted}, and shows this marker as part of the "
        "first button's text."
    ),
    codes.RUNTIME_BINDING_IGNORED_POSITION: (
        "${runtime} saves nothing here: write `%{{` right after `?[`. It binds an answer only "
        "when the interaction starts with `%{{`; here it saves no answer to ${quoted} and "
        "shows the marker as button text."
    ),
    # -- diagnostics: runtime-key-differs
    codes.RUNTIME_KEY_DIFFERS: (
        "${runtime} never reads this marker: its key holds `}`. Its reader stops a key at the "
        "first `}`, so it neither substitutes nor binds ${quoted}; remove the `}` from the key."
    ),
    # -- diagnostics: fixed-output-unclosed
    codes.FIXED_OUTPUT_UNCLOSED: (
        "This `!===` fixed output is not closed: add a `!===` line. Before the block ends no "
        "`!===` line closes it, so markdown-flow sends the whole block to the AI as an "
        "ordinary prompt, `!===` included."
    ),
    # -- diagnostics: unknown-gate-value
    codes.UNKNOWN_GATE_VALUE: (
        "${short} gates nothing: write `_sys_pay` or `_sys_login`. AI-Shifu stops the lesson "
        "for payment or login only at a button whose value is one of them, written exactly so; "
        "this button is an ordinary answer."
    ),
    # -- diagnostics: page-unreadable-binding
    codes.PAGE_UNREADABLE_BINDING: (
        "The learner page reads no binding of ${short}. ${shown}. The page reads no binding of "
        "this key in any form: rename it in the whole course to one it reads, such as "
        "`${readable}`. Answers already stored under ${quoted} stay under it."
    ),
    codes.PAGE_UNREADABLE_BINDING_FORM: (
        "The learner page reads no binding of ${short} written so. ${shown}. Every targeted "
        "page version reads `${binding}`: write that."
    ),
    codes.PAGE_UNREADABLE_BINDING_LINE: (
        "The learner page reads no binding of ${short} here. ${shown}. The page reads the key "
        "elsewhere: it is this line that it reads otherwise."
    ),
    # -- diagnostics: page-reads-otherwise
    codes.PAGE_READS_OTHERWISE: (
        "The learner page shows this interaction unlike ${runtime}. ${shown}; ${runtime} reads "
        "${reads}.${causes}"
    ),
    # -- diagnostics: unused-suppression
    codes.UNUSED_SUPPRESSION: (
        "This suppression silences nothing. mfls reports no ${codes} where it applies: remove "
        "${them}, or it would hide a problem written there later."
    ),
    codes.UNUSED_SUPPRESSION_UNKNOWN: (
        "This suppression names a code mfls does not have. ${codes} silences nothing: write a "
        "code that `mfls check` prints, or remove it."
    ),
    # -- config
    "config.unreadable": "The course file could not be read. Every setting uses its default.",
    "config.invalid-toml": (
        "The course file is not valid TOML. Every setting uses its default until it is fixed; "
        "the TOML reader says: ${reason}."
    ),
    "config.unknown-setting": (
        "Unknown setting `${key}` is ignored. The course file knows ${known}."
    ),
    "config.name-type": "`name` must be a string; it is ignored.",
    "config.host-value": (
        "`host` is not a known host; the generic host applies. It must be one of ${choices}."
    ),
    "config.target-value": (
        "`target` is not a known target; the host's default applies. `target` must be one of "
        "${choices}."
    ),
    "config.page-value": (
        "`page` names no learner page mfls checks; every checked version applies. `page` must "
        "be one of ${choices}, or a list of them."
    ),
    "config.list-type": "`${key}` must be a list of strings; it is ignored.",
    "config.diagnostics-type": "`diagnostics` must be a table of code = severity; ignored.",
    "config.unknown-code": "Unknown diagnostic code `${code}` is ignored.",
    "config.severity-value": (
        "The severity of `${code}` is not known; the default applies. It must be one of ${choices}."
    ),
    # -- structure
    "structure.unreadable": (
        "structure.json could not be read (${reason}); the lessons are `lessons/lesson-*.md` "
        "in number order until it can be."
    ),
    "structure.invalid-json": (
        "structure.json is not valid JSON: ${reason}. The lessons are `lessons/lesson-*.md` in "
        "number order until it is fixed."
    ),
    "structure.shape": "${what}: the course tool reads ${expected} here; this part is ignored.",
    "structure.missing-file": (
        "`${file}` is not in lessons/: this lesson is left out of the course. The course "
        'tool\'s `build` skips it too ("file not found").'
    ),
    "structure.outside": (
        "`${file}` is not a file inside lessons/: the course tool refuses it, and mfls reads "
        "nothing outside the course folder."
    ),
    "structure.duplicate": (
        "`${file}` is listed a second time: it runs once, where it is first listed. The course "
        "tool's `build` would make it a second lesson."
    ),
    # -- config
    "config.document-limit": (
        "The course is over the document limit; its check is incomplete. Its folder was listed "
        "up to ${limit} files: the files after them are not part of the course."
    ),
    "config.file-limit": (
        "A file of the course is over the size limit; its check is incomplete. `${path}` is "
        "larger than ${limit} bytes: it is left out, its bindings do not count."
    ),
    # -- part
    "part.runs-on.marker": "runs on into the next marker and ends at that marker's `}}`",
    "part.runs-on.interaction": "runs on into an interaction and ends at a later `}}`",
    "part.runs-on.lines": "runs on over ${count} lines to a later `}}`",
    "part.which-character": " (${code})",
    "part.hides.one": " It hides ${what} written after it.",
    "part.hides.both": " It hides ${markers} and ${interactions} written after it.",
    "part.count.markers.one": "1 memory marker",
    "part.count.markers.other": "${count} memory markers",
    "part.count.interactions.one": "1 interaction",
    "part.count.interactions.other": "${count} interactions",
    "part.where.later": "later in this lesson",
    "part.where.in": "in ${label}",
    "part.near.bound": "bound",
    "part.near.provided": "provided by the host",
    "part.differs.letters.one": "1 letter (after ignoring case, spacing and punctuation)",
    "part.differs.letters.other": "${count} letters (after ignoring case, spacing and punctuation)",
    "part.differs.spacing": "spacing",
    "part.differs.case": "letter case",
    "part.differs.nfkc": "Unicode form (NFKC)",
    "part.differs.any": "spacing, letter case, Unicode form or punctuation",
    "part.page.on": "on ${page}, the learner gets ${what}",
    "part.page.raw": "the line as raw text, with nothing to click or type in",
    "part.page.marker-buttons": "buttons without a binding, the marker in the first one's label",
    "part.page.buttons": "the buttons ${labels}",
    "part.page.button": "the one button ${labels}",
    "part.page.check-boxes": "the check boxes ${labels}",
    "part.page.valued": "${label} (saving ${value})",
    "part.page.input": "a text input ${hint}",
    "part.page.nothing": "nothing to answer",
    "part.page.and": " and ",
    "part.page.cause.escape": (
        " Markdown drops a backslash before punctuation before the page reads the line: the "
        "page knows no escapes."
    ),
    "part.page.cause.full-width": (
        " remark-flow 1.0.0-alpha.7 also splits choices at the full-width `｜`."
    ),
    "part.page.cause.multiple": " remark-flow 1.0.0-alpha.7 has no multiple choice.",
    "part.page.cause.multiple-unbound": " The page offers multiple choice only after a binding.",
    "part.page.cause.input": " The page reads `...` as a text input only after a binding.",
    # -- related
    "related.lesson-binds": "a lesson binds it here",
    "related.first-bound": "first bound here",
    "related.near-bound": "${quoted} is bound here",
    # -- hover
    "hover.not-marker": "**Not a memory marker**: ${why}",
    "hover.why.empty": (
        "it names no question: nothing is left between the braces once the surrounding spaces "
        "are removed."
    ),
    "hover.why.line-break": "its question is broken across lines; a question must fit on one line.",
    "hover.why.control-character": "its question contains an invisible control character.",
    "hover.why.unclosed": (
        "no `}}` closes it in its paragraph, so it turns the rest of the paragraph into plain text."
    ),
    "hover.why.runs-on": "it probably lacks its `}}`: it ${runs_on}.",
    "hover.hides.one": "It hides ${what} written after it.",
    "hover.hides.both": "It hides ${markers} and ${interactions} written after it.",
    "hover.plain-text": "The AI reads it as plain text.",
    "hover.context.code-span": "a code span",
    "hover.context.math": "inline math",
    "hover.context.link-destination": "a link destination",
    "hover.context.link-title": "a link title",
    "hover.context.link-label": "a link label",
    "hover.context.link-definition": "a link reference definition",
    "hover.context.autolink": "an autolink",
    "hover.context.html-tag": "an HTML tag",
    "hover.context.html-comment": "an HTML comment",
    "hover.context.html-block": "a raw HTML block",
    "hover.context.info-string": "a code block's info string",
    "hover.context.literal": "a literal context",
    "hover.dropped.html-comment": "markdown-flow removes comments before the AI sees the text",
    "hover.dropped.info-string": (
        "markdown-flow keeps a fenced code block, its info string included, exactly as written"
    ),
    "hover.literal.substituted": (
        "**Reference** inside ${where}: ${runtime} substitutes it there too, so it is checked "
        "like any reference."
    ),
    "hover.literal.checked": "**Reference** inside ${where}: checked like any reference.",
    "hover.literal.dropped-because": (
        "**Reference** inside ${where}: ${why}, so this is never substituted on ${host}. It "
        "raises no course diagnostic."
    ),
    "hover.literal.dropped": (
        "**Reference** inside ${where}, never substituted on ${host}. It raises no course "
        "diagnostic."
    ),
    "hover.binding": (
        "**Binding**${legacy}: this interaction saves the user's answer to this question."
    ),
    "hover.binding.ignored": (
        "**Not a binding on ${runtime}**: this interaction saves no answer there and shows the "
        "marker as part of its first button's text (see its diagnostic)."
    ),
    "hover.binding.reserved": (
        "**Binding**${legacy} of a key the host reserves: the host rejects it, so this "
        "interaction saves no answer (see its diagnostic)."
    ),
    "hover.binding.in-reference": (
        "**Binding**${legacy} in a reference document: it grants no permission to save the answer."
    ),
    "hover.legacy-form": " (old `%{{...}}` form)",
    "hover.reference": "**Reference**: the AI reads the remembered answer to this question.",
    "hover.look-closely": "Look closely:",
    "hover.note.spaces": "${count} spaces in a row at character ${at}",
    "hover.note.character": "${code} ${name} at character ${at}",
    "hover.asked": "Asked with ${asked}.",
    "hover.asked.choices": "choices: ${choices}",
    "hover.asked.input": "free input",
    "hover.asked.separator": "; ",
    "hover.list-separator": ", ",
    "hover.bound-in": "Bound in ${places}.",
    "hover.bound-in.more": "Bound in ${places} and ${more} more.",
    "hover.bound-in-references": (
        "Not bound in any lesson: bound only in reference documents (${places}), which save no "
        "answer."
    ),
    "hover.bound-in-references.more": (
        "Not bound in any lesson: bound only in reference documents (${places} and ${more} "
        "more), which save no answer."
    ),
    "hover.not-bound": "Not bound anywhere in this course.",
    # -- lens
    "lens.unread": "asked here · not read yet",
    "lens.read": "asked here · read ${times} in ${where}",
    "lens.times.one": "1 time",
    "lens.times.other": "${count} times",
    "lens.lessons.one": "1 lesson",
    "lens.lessons.other": "${count} lessons",
    "lens.documents.one": "1 document",
    "lens.documents.other": "${count} documents",
    # -- rename
    "rename.stored-answers": (
        "Stored answers stay under the old key “${old}”. Hosts store answers by key and do not "
        "migrate them: learners who answered before are asked again for “${new}”, or the "
        "lessons fall back to their stated default."
    ),
    "rename.not-in-course": "This document is not part of any indexed course yet.",
    "rename.invalid-marker": (
        "This marker is invalid (${reason}): it is literal text, not a memory key, so there is "
        "nothing to rename. Fix the marker first."
    ),
    "rename.in-code": (
        "Markers inside code blocks are examples, not memory: they are never renamed."
    ),
    "rename.no-marker": (
        "There is no memory marker here: put the cursor on a {{ key }} to rename that key."
    ),
    "rename.system-key": (
        "“${key}” is a system key listed in the course file (system-keys); rename it there and "
        "in the host, not in the lessons."
    ),
    "rename.host-key": (
        "“${key}” is provided by the host (${host}); its name is not the course's to change."
    ),
    "rename.name.empty": "The new name is empty once surrounding whitespace is trimmed.",
    "rename.name.line-break": (
        "The new name contains a line break (U+000A, U+000D, U+0085, U+2028 or U+2029); "
        "a key must stay on one line."
    ),
    "rename.name.control-character": (
        "The new name contains a control character (U+0000-U+001F or U+007F-U+009F), "
        "which a key may not hold."
    ),
    "rename.name.not-utf8": (
        "The new name contains a lone surrogate code point, which UTF-8 cannot encode: "
        "such a key cannot be written to a document."
    ),
    "rename.name.closing-sequence": (
        "The new name contains '}}', which always closes a marker: such a key cannot be written."
    ),
    "rename.name.invalid": "The new name is invalid (${problem}).",
    "rename.name.reserved-prefix": (
        "The new name starts with “${prefix}”, a prefix the host (${host}) reserves for its own "
        "keys."
    ),
    "rename.name.host-key": "“${key}” is provided by the host: a course key cannot take its name.",
    "rename.unused": "No document of the course uses the key “${key}”.",
    "rename.conflict": (
        "“${new}” is already a key of this course, used at ${uses}. Renaming would merge two "
        "questions' memory; to do that on purpose, use the code action \"Merge key “${old}” "
        'into “${new}”".'
    ),
    "rename.uses.more": "and ${count} more",
    "rename.label": "Rename memory key “${old}” to “${new}”",
    "rename.description": (
        "Answers already stored under “${old}” will not follow: hosts store answers by key and "
        "do not migrate them, so learners who answered before will be asked again, or the "
        "lessons fall back to their stated default."
    ),
    "rename.merge.label": "Merge “${old}” into “${new}”",
    "rename.merge.description": (
        "Answers already stored under “${old}” will not follow: hosts store answers by key and "
        "do not migrate them. Lessons will read the answers stored under “${new}” instead."
    ),
    # -- course key table (Markdown)
    "map.not-in-course": "This document is not part of any indexed course yet.",
    "map.table.title": "# Course keys: ${course}",
    "map.table.header": "| question | asked in | reads | problems |",
    "map.table.line": "${lesson} (line ${line})",
    "map.table.host": " (host)",
    "map.table.did-you-mean": " (did you mean “${key}”)",
    "map.table.reads": "${reads} in ${lessons}",
    "map.table.lessons.one": "1 lesson",
    "map.table.lessons.other": "${count} lessons",
    "map.table.references.one": " and 1 reference",
    "map.table.references.other": " and ${count} references",
    # -- hover
    "hover.read": "Read ${times} in ${documents} of ${course}.",
    "hover.times.one": "once",
    "hover.times.other": "${count} times",
    "hover.documents.one": "1 document",
    "hover.documents.other": "${count} documents",
    "hover.not-read": "Not read anywhere in ${course}.",
    "hover.legacy-profile": (
        "A legacy learner-profile key: ${host} still accepts its `%{{...}}` binding."
    ),
    "hover.provided": "Provided by ${host} (read-only).",
    "hover.prefix": "The prefix `${prefix}` is reserved by ${host}.",
    "hover.fixed-block": (
        "Inside fixed output: markdown-flow shows this block as written, without the AI, and "
        "still substitutes the marker with the answer."
    ),
    "hover.fixed-span": (
        "Inside fixed output: markdown-flow tells the AI to output this text as written, and "
        "still substitutes the marker with the answer."
    ),
    "hover.fixed.line": "Fixed output: a `===text===` line.",
    "hover.fixed.fence": "Fixed output: the lines between two `!===` lines.",
    "hover.fixed.in-line": (
        "Fixed output: `===text===` inside a line (a line with exactly two `===`)."
    ),
    "hover.fixed.bang": "Fixed output: `!===text!===` inside a line.",
    "hover.fixed.alone": (
        "markdown-flow shows it as written, without the AI, so it is never translated."
    ),
    "hover.fixed.told": (
        "markdown-flow tells the AI to output it as written, but when the course answers in "
        "the learner's language (AI-Shifu's `use_learner_language`) it tells the AI to "
        "translate it into that language."
    ),
    "hover.fixed.markers": "Markers and interactions inside it are read as everywhere else.",
    "hover.no-variable": (
        "An interaction without a variable: the answer is stored nowhere. markdown-flow gives "
        "it to the conversation: the AI reads it as the learner's message in the prompts that "
        "follow, and no `{{...}}` can read it."
    ),
    "hover.no-variable.plain": (
        "An interaction without a variable: the answer is stored nowhere, and no `{{...}}` can "
        "read it."
    ),
    "hover.gate": "`${value}`: ${does}",
    # -- gate
    "gate.pay": (
        "AI-Shifu stops the lesson at this interaction until the learner has paid for the "
        "course, then goes on by itself."
    ),
    "gate.login": (
        "AI-Shifu stops the lesson at this interaction until the learner has logged in, then "
        "goes on by itself."
    ),
    # -- hover
    "hover.gate.unknown": (
        "`${value}` is no AI-Shifu gate: only `_sys_pay` and `_sys_login`, written exactly so, "
        "gate the lesson. This button is an ordinary answer."
    ),
    # -- action
    "action.bind-with": "Bind with ${marker}",
    "action.convert-legacy": "Convert legacy binding to ${marker}",
    "action.pad": "Pad marker to ${marker}",
    "action.page-rename": (
        "Rename ${key} to ${new} in the whole course (stored answers stay under ${key})"
    ),
    "action.page-form": "Write ${marker}",
    "action.replace-with": "Replace with ${marker}",
    "action.ask-for": "Ask for “${key}” in an interaction before its first use",
    "action.merge": "Merge key “${key}” into “${target}”",
    "action.convert-legacy-document": "Convert every legacy binding in this document to {{ key }}",
    "action.pad-document": "Pad every marker in this document to {{ key }}",
    "action.convert-legacy-course": "Convert every legacy binding in this course to {{ key }}",
    "action.pad-course": "Pad every marker in this course to {{ key }}",
    "action.ignore-here": "Ignore this problem here (${code})",
    "action.remove-suppression": "Remove the unused suppression",
    # -- part
    "part.suppressed.any": "problem",
    "part.suppressed.it": "it",
    # -- inlay
    "inlay.asked-in": "asked in ${lesson}",
    "inlay.asked-in.with": "asked in ${lesson}: ${asked}",
    "inlay.provided": "provided by ${host}",
    "inlay.read": "read in ${where}",
    "inlay.unread": "not read yet",
    # -- completion: an item's detail and doubt
    "completion.read.one": "read once",
    "completion.read.other": "read ${count}×",
    "completion.provided": "provided by ${host} · ${read}",
    "completion.not-bound": "not bound in this course · ${read}",
    "completion.bound-in": "bound in ${where}",
    "completion.bound-in.more": "bound in ${where} and ${more} more",
    "completion.bound-in-reference": "bound only in reference ${where} · ${read}",
    "completion.bound-in-reference.more": (
        "bound only in reference ${where} and ${more} more · ${read}"
    ),
    "completion.reserved": "${prefix} is reserved by ${host}",
    "completion.doubt.never-asked": "never asked",
    "completion.doubt.reference-only": "reference only",
    "completion.doubt.reserved-prefix": "reserved prefix ${prefix}",
    "completion.doubt.typo-of": "typo of “${key}”?",
    "completion.gate": "AI-Shifu gate",
    # -- the map's legend: what each kind of place means
    "legend.asked": "asked here: an interaction saves the answer",
    "legend.read": "read here, after it is asked",
    "legend.read-before-asked": "read here before any lesson asks it",
    "legend.unbound": "read, but no lesson asks it",
    "legend.near-miss": "read, but only a similar question is asked (did you mean ...?)",
    "legend.reserved": "asked, but the host reserves this key",
    "legend.legacy-profile": (
        "asked in the legacy %{{...}} form the host accepts for this profile key"
    ),
    "legend.provided": "read; the host provides the value",
    "legend.reference-binding": "asked in a reference document: no answer is saved",
    # -- mfls.courseInfo
    "course-info.no-course": "This file belongs to no MarkdownFlow course.",
}
