"""Reading one inline text: memory markers, interactions and inline literal contexts.

Offsets are relative to the inline text. The reading is left to right; at each
position the construct that starts first wins and owns its whole extent
(docs/syntax.md rule 3).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from enum import Enum
from typing import NamedTuple

from mfls.syntax.inline_patterns import (
    ASCII_PUNCTUATION,
    CLOSING_TAG,
    DESTINATION_END,
    DOUBLE_DOLLAR,
    EMAIL_AUTOLINK,
    LABEL_BRACKET,
    LINK_SPACE,
    MATH_SPACE,
    MAX_LABEL,
    OPEN_TAG,
    PLAIN_DESTINATION,
    POINTY_DESTINATION,
    SINGLE_DOLLAR_CLOSER,
    TITLES,
    URI_AUTOLINK,
    BacktickRuns,
    NextFinder,
    Parens,
    backslashes_before,
)
from mfls.syntax.interactions import split_body
from mfls.syntax.keys import WHITESPACE, key_problem, trim
from mfls.syntax.model import (
    Context,
    Interaction,
    InvalidMarker,
    Literal,
    LiteralKind,
    Marker,
    Operator,
    Reason,
    Role,
    pack_operators,
)


class InlineMode(Enum):
    MARKDOWN = "markdown"  # paragraphs, headings: full CommonMark inline literal contexts
    HTML = "html"  # ordinary HTML blocks (types 6-7): only complete raw HTML is literal
    LITERAL = "literal"  # the whole text is an inline literal context


# Raw HTML blocks (types 1-5) take no backslash escapes (CommonMark 4.6).
_RAW_HTML_CONTEXTS = frozenset((Context.HTML_BLOCK, Context.HTML_COMMENT))


class InlineScan(NamedTuple):
    markers: tuple[Marker, ...] = ()
    invalid: tuple[InvalidMarker, ...] = ()
    interactions: tuple[Interaction, ...] = ()
    literals: tuple[Literal, ...] = ()


# The first characters of what a reading stops at; a `{`, `!` or `?` only counts
# when `{{`, `![` or `?[` starts there (checked by the reading: a bare character set
# searches about twice as fast as the pattern of the whole openers).
_MARKDOWN_SPECIAL = re.compile(r"[\\`$<\[\]{!?]")
_HTML_SPECIAL = re.compile(r"[<{?]")


_new_tuple = tuple.__new__

# How many code span closers one reading looks for with `str.find` before indexing runs.
_DIRECT_SEARCHES = 8

# Lists the results are appended to: markers, invalid markers, interactions, literals.
_Sink = tuple[list[Marker], list[InvalidMarker], list[Interaction], list[Literal]]


class _Reader:
    """One left-to-right reading of an inline text."""

    __slots__ = (
        "_close",
        "_finders",
        "_parens",
        "_runs",
        "_spans_searched",
        "_walk",
        "base",
        "context",
        "count_hidden",
        "escapes",
        "interactions",
        "invalid",
        "literals",
        "markers",
        "mode",
        "n",
        "s",
        "text",
    )

    def __init__(
        self,
        text: str,
        mode: InlineMode,
        count_hidden: bool = True,
        base: int = 0,
        sink: _Sink | None = None,
        context: Context | None = None,
    ):
        # `base` is added to every offset in the results (the glue's source offset).
        self.base = base
        # The literal context of a LITERAL-mode text (an info string, a definition).
        self.context = context
        self.text = text
        # NUL counts as U+FFFD for structure (rule 26); keys come from `text`.
        self.s = text.replace("\0", "\ufffd") if "\0" in text else text
        self.n = len(text)
        self.mode = mode
        self.escapes = mode is not InlineMode.HTML
        self.count_hidden = count_hidden
        if sink is None:
            sink = ([], [], [], [])
        self.markers, self.invalid, self.interactions, self.literals = sink
        self._close = NextFinder(self.s, literal="}}")
        self._finders: dict[str, NextFinder] = {}
        self._runs: BacktickRuns | None = None
        self._spans_searched = 0
        self._parens: Parens | None = None
        # Last interaction body walk: (body start, closing `]` or -1, atoms, atom starts,
        # last body start for which the same walk holds).
        self._walk: tuple[int, int, list[tuple[int, int]], list[int], int] | None = None

    # -- memoized lookups -------------------------------------------------------------

    def _find(self, needle: str, pos: int) -> int:
        finder = self._finders.get(needle)
        if finder is None:
            finder = self._finders[needle] = NextFinder(self.s, literal=needle)
        return finder(pos)

    def _find_pattern(self, key: str, pattern: re.Pattern[str], pos: int) -> int:
        finder = self._finders.get(key)
        if finder is None:
            finder = self._finders[key] = NextFinder(self.s, pattern=pattern)
        return finder(pos)

    # -- markers ----------------------------------------------------------------------

    def _make_marker(
        self,
        start: int,
        close: int,
        *,
        context: Context | None = None,
        role: Role = Role.REFERENCE,
        legacy_start: int = -1,
    ) -> Marker | InvalidMarker:
        """The marker `{{` at `start` closed by the `}}` at `close`.

        `legacy_start`, when given, is the `%` of a legacy binding: it starts a valid
        marker, while an invalid one still starts at its `{{` (rule 22). A marker with a
        `context` is literal.
        """
        ks, ke = trim(self.text, start + 2, close)
        key = self.text[ks:ke]
        reason = key_problem(key)
        base = self.base
        if reason is not None:
            return InvalidMarker(
                start=start + base, end=close + 2 + base, reason=reason, legacy=legacy_start >= 0
            )
        # The fields in order, built as a plain tuple is: the named tuple's own `__new__`
        # is Python code, a third of the cost of a marker.
        return _new_tuple(
            Marker,
            (
                (start if legacy_start < 0 else legacy_start) + base,
                close + 2 + base,
                key,
                ks + base,
                ke + base,
                role,
                legacy_start >= 0,
                context is not None,
                context,
            ),
        )

    def _literal_markers(
        self, start: int, end: int, escapes: bool, context: Context, title: int = -1
    ) -> None:
        """Report the complete valid markers inside the literal context `[start, end)`.

        In a link resource, `title` is where its title starts: markers starting there
        are in the title, markers before it in the destination.
        """
        s = self.s
        pos = start
        while True:
            m = s.find("{{", pos, end)
            if m < 0:
                return
            if escapes and backslashes_before(s, m, start) % 2 == 1:
                pos = m + 1
                continue
            close = self._close(m + 2)
            if close < 0 or close + 2 > end:
                return
            where = context if title < 0 or m < title else Context.LINK_TITLE
            marker = self._make_marker(m, close, context=where)
            if isinstance(marker, Marker):
                self.markers.append(marker)
            pos = close + 2

    def _add_literal(
        self,
        kind: LiteralKind,
        start: int,
        end: int,
        escapes: bool,
        context: Context,
        title: int = -1,
    ) -> None:
        self.literals.append(Literal(kind=kind, start=start + self.base, end=end + self.base))
        self._literal_markers(start, end, escapes, context, title)

    def _surrounding_marker(self, m: int) -> int:
        """A marker starting at `m` in surrounding text; returns where reading resumes."""
        close = self._close(m + 2)
        if close < 0:
            hidden_markers = hidden_interactions = 0
            if self.count_hidden:
                tail = _Reader(self.text[m + 2 :], self.mode, count_hidden=False)
                tail.run()
                hidden_markers = len(tail.markers)
                hidden_interactions = len(tail.interactions)
            self.invalid.append(
                InvalidMarker(
                    start=m + self.base,
                    end=self.n + self.base,
                    reason=Reason.UNCLOSED,
                    hidden_markers=hidden_markers,
                    hidden_interactions=hidden_interactions,
                )
            )
            return self.n
        marker = self._make_marker(m, close)
        if isinstance(marker, Marker):
            self.markers.append(marker)
        else:
            self.invalid.append(marker)
        return close + 2

    # -- interactions -----------------------------------------------------------------

    def _walk_body(self, body: int) -> tuple[int, list[tuple[int, int]]]:
        """Find the closing `]` of a body starting at `body`, reading markers as atoms.

        Returns `(close, atoms)`, `close` -1 when there is none (no `]`, or a marker
        without `}}` swallows the rest).
        """
        cached = self._walk
        if cached is not None:
            b0, close, atoms, starts, limit = cached
            if b0 <= body <= limit:
                k = bisect_right(starts, body) - 1
                if k < 0 or atoms[k][1] <= body or atoms[k][0] == body:
                    first = k if k >= 0 and atoms[k][0] == body else k + 1
                    return close, atoms[first:]
        s = self.s
        atoms = []
        pos = body
        close = -1
        limit = self.n
        while True:
            bracket = self._find("]", pos)
            if bracket < 0:
                break
            m = self._find("{{", pos)
            if m < 0 or m > bracket:
                close = bracket
                break
            if self.escapes and backslashes_before(s, m, body) % 2 == 1:
                pos = m + 1
                continue
            end = self._close(m + 2)
            if end < 0:
                limit = m
                break
            atoms.append((m, end + 2))
            pos = end + 2
        if close >= 0:
            limit = close
        self._walk = (body, close, atoms, [a for a, _ in atoms], limit)
        return close, atoms

    def _interaction(self, q: int) -> int:
        """Try an interaction at `?[` (`q` is the `?`); returns where reading resumes or -1."""
        body = q + 2
        close, atoms = self._walk_body(body)
        if close < 0 or (close + 1 < self.n and self.s[close + 1] == "("):
            return -1
        text = self.text
        lead = body
        while lead < close and text[lead] in WHITESPACE:
            lead += 1
        legacy = text.startswith("%{{", lead)
        first = lead + 1 if legacy else lead
        binding: Marker | None = None
        rest = body
        for a, b in atoms:
            if a == first:
                made = self._make_marker(
                    a,
                    b - 2,
                    role=Role.BINDING,
                    legacy_start=lead if legacy else -1,
                )
                if isinstance(made, Marker):
                    binding = made
                    rest = b
            else:
                made = self._make_marker(a, b - 2)
            if isinstance(made, Marker):
                self.markers.append(made)
            else:
                self.invalid.append(made)
        split = split_body(
            text, rest, close, [atom for atom in atoms if atom[0] >= rest], base=self.base
        )
        base = self.base
        self.interactions.append(
            Interaction(
                start=q + base,
                end=close + 1 + base,
                binding=None if binding is None else binding.key,
                multiple=split.multiple,
                choices=split.choices,
                input=split.input,
                binding_marker=binding,
                **pack_operators(
                    q + base,
                    (
                        Operator(q + base, body + base, "?["),
                        *split.operators,
                        Operator(close + base, close + 1 + base, "]"),
                    ),
                ),
            )
        )
        return close + 1

    # -- Markdown literal contexts ----------------------------------------------------

    def _code_span_closer(self, length: int, after: int) -> int:
        """Start of the first run of exactly `length` backticks at or after `after`, or -1.

        The first few searches use `str.find`; past them an index of all runs keeps
        many unmatched openers linear.
        """
        if self._spans_searched < _DIRECT_SEARCHES:
            self._spans_searched += 1
            s = self.s
            run = "`" * length
            c = s.find(run, after)
            while c >= 0:
                e = c + length
                if e == self.n or s[e] != "`":
                    return c
                while e < self.n and s[e] == "`":
                    e += 1
                c = s.find(run, e)
            return -1
        if self._runs is None:
            self._runs = BacktickRuns(self.s)
        return self._runs.closer(length, after)

    def _code_span(self, i: int) -> int:
        s = self.s
        j = i
        while j < self.n and s[j] == "`":
            j += 1
        length = j - i
        closer = self._code_span_closer(length, j)
        if closer < 0:
            return j
        self._add_literal(
            LiteralKind.CODE_SPAN, i, closer + length, escapes=False, context=Context.CODE_SPAN
        )
        return closer + length

    def _math(self, i: int) -> int:
        s = self.s
        n = self.n
        if i + 1 < n and s[i + 1] == "$":
            return self._math_span(i, 2, "$$", DOUBLE_DOLLAR)
        if i + 1 >= n or s[i + 1] in MATH_SPACE:
            return i + 1
        return self._math_span(i, 1, "$", SINGLE_DOLLAR_CLOSER)

    def _math_span(self, i: int, width: int, name: str, closer: re.Pattern[str]) -> int:
        """The math span opened by the `width` dollars at `i`: its end, or `i + width`
        (plain text) when no unescaped closer follows in this inline text."""
        pos = i + 2
        while True:
            j = self._find_pattern(name, closer, pos)
            if j < 0:
                return i + width
            if backslashes_before(self.s, j, i + width) % 2 == 0:
                break
            pos = j + 1
        self._add_literal(LiteralKind.MATH, i, j + width, escapes=False, context=Context.MATH)
        return j + width

    def _raw_html(self, i: int) -> int:
        """End of a complete inline raw HTML construct at `i`, or -1."""
        s = self.s
        if s.startswith("<!--", i):
            if s.startswith("<!-->", i):
                return i + 5
            if s.startswith("<!--->", i):
                return i + 6
            j = self._find("-->", i + 4)
            return -1 if j < 0 else j + 3
        if s.startswith("<?", i):
            j = self._find("?>", i + 2)
            return -1 if j < 0 else j + 2
        if s.startswith("<![CDATA[", i):
            j = self._find("]]>", i + 9)
            return -1 if j < 0 else j + 3
        if s.startswith("<!", i):
            if i + 2 < self.n and s[i + 2].isascii() and s[i + 2].isalpha():
                j = self._find(">", i + 2)
                return -1 if j < 0 else j + 1
            return -1
        m = OPEN_TAG.match(s, i) or CLOSING_TAG.match(s, i)
        return -1 if m is None else m.end()

    def _angle(self, i: int) -> int:
        if self.mode is InlineMode.MARKDOWN:
            m = URI_AUTOLINK.match(self.s, i) or EMAIL_AUTOLINK.match(self.s, i)
            if m is not None:
                self._add_literal(
                    LiteralKind.AUTOLINK, i, m.end(), escapes=False, context=Context.AUTOLINK
                )
                return m.end()
        end = self._raw_html(i)
        if end < 0:
            return i + 1
        comment = self.s.startswith("<!--", i)
        context = Context.HTML_COMMENT if comment else Context.HTML_TAG
        self._add_literal(LiteralKind.RAW_HTML, i, end, escapes=False, context=context)
        return end

    # -- links ------------------------------------------------------------------------

    def _resource(self, p: int) -> tuple[int, int]:
        """End of an inline link resource `( ... )` whose `(` is at `p`, or -1; and
        where its title starts (-1 when it has none)."""
        s = self.s
        n = self.n
        m = LINK_SPACE.match(s, p + 1)
        assert m is not None
        q = m.end()
        if q < n and s[q] == "<":
            d = POINTY_DESTINATION.match(s, q)
            if d is None:
                return -1, -1
            q = d.end()
        else:
            # The pattern matches the empty string, so the match is never None.
            plain = PLAIN_DESTINATION.match(s, q).end()  # type: ignore[union-attr]
            if plain < n and s[plain] in "(\\":
                limit = self._find_pattern("dest", DESTINATION_END, q)
                if limit < 0:
                    limit = n
                if self._parens is None:
                    self._parens = Parens(s)
                plain = self._parens.end_of(q, limit)
                if plain < 0:
                    return -1, -1
            q = plain
        m = LINK_SPACE.match(s, q)
        assert m is not None
        title = -1
        if m.end() > q and m.end() < n and s[m.end()] in TITLES:
            title = m.end()
            t = TITLES[s[title]].match(s, title)
            if t is None:
                return -1, -1
            m = LINK_SPACE.match(s, t.end())
            assert m is not None
        q = m.end()
        if q < n and s[q] == ")":
            return q + 1, title
        return -1, -1

    def _label(self, p: int) -> int:
        """End of a link label `[ ... ]` whose `[` is at `p`, or -1."""
        s = self.s
        pos = p + 1
        limit = min(self.n, p + 1 + MAX_LABEL + 1)
        while True:
            m = LABEL_BRACKET.search(s, pos, limit)
            if m is None:
                return -1
            j = m.start()
            if self.escapes and backslashes_before(s, j, p + 1) % 2 == 1:
                pos = j + 1
                continue
            if s[j] == "[" or j - (p + 1) > MAX_LABEL:
                return -1
            if not s[p + 1 : j].strip(" \t\r\n"):
                return -1
            return j + 1

    def _close_bracket(self, i: int, openers: list[bool], inactive_below: int) -> tuple[int, int]:
        """A `]` at `i`; returns (where reading resumes, new inactive watermark)."""
        if not openers:
            return i + 1, inactive_below
        image = openers.pop()
        if not image and len(openers) < inactive_below:
            return i + 1, min(inactive_below, len(openers))
        n = self.n
        s = self.s
        if i + 1 < n and s[i + 1] == "(":
            end, title = self._resource(i + 1)
            if end >= 0:
                self._add_literal(
                    LiteralKind.LINK_RESOURCE,
                    i + 1,
                    end,
                    escapes=True,
                    context=Context.LINK_DESTINATION,
                    title=title,
                )
                if not image:
                    inactive_below = len(openers)
                return end, min(inactive_below, len(openers))
        if i + 1 < n and s[i + 1] == "[":
            end = self._label(i + 1)
            if end >= 0:
                # Whether the label is defined is unknown here (rule 24 does not ask): the
                # reference is read as undefined, leaving enclosing brackets free to link.
                self._add_literal(
                    LiteralKind.LINK_LABEL, i + 1, end, escapes=True, context=Context.LINK_LABEL
                )
                return end, min(inactive_below, len(openers))
        return i + 1, min(inactive_below, len(openers))

    # -- the readings -----------------------------------------------------------------

    def run(self) -> None:
        if self.mode is InlineMode.LITERAL:
            context = self.context or Context.INFO_STRING
            self._literal_markers(0, self.n, context not in _RAW_HTML_CONTEXTS, context)
        elif self.mode is InlineMode.HTML:
            self._run_html()
        else:
            self._run_markdown()

    def _run_html(self) -> None:
        s = self.s
        n = self.n
        pos = 0
        search = _HTML_SPECIAL.search
        while pos < n:
            m = search(s, pos)
            if m is None:
                return
            i = m.start()
            c = s[i]
            if c == "<":
                pos = self._angle(i)
            elif i + 1 >= n:
                return
            elif c == "{":
                pos = self._surrounding_marker(i) if s[i + 1] == "{" else i + 1
            elif s[i + 1] == "[":
                end = self._interaction(i)
                pos = i + 1 if end < 0 else end
            else:
                pos = i + 1

    def _run_markdown(self) -> None:
        s = self.s
        n = self.n
        pos = 0
        search = _MARKDOWN_SPECIAL.search
        openers: list[bool] = []  # one per `[` or `![` opener: is it an image?
        inactive_below = 0
        while pos < n:
            m = search(s, pos)
            if m is None:
                return
            i = m.start()
            c = s[i]
            if c == "\\":
                pos = i + 2 if i + 1 < n and s[i + 1] in ASCII_PUNCTUATION else i + 1
            elif c == "{":
                pos = self._surrounding_marker(i) if i + 1 < n and s[i + 1] == "{" else i + 1
            elif c == "`":
                pos = self._code_span(i)
            elif c == "$":
                pos = self._math(i)
            elif c == "<":
                pos = self._angle(i)
            elif c == "[":
                openers.append(False)
                pos = i + 1
            elif c == "]":
                pos, inactive_below = self._close_bracket(i, openers, inactive_below)
            elif i + 1 >= n or s[i + 1] != "[":
                pos = i + 1
            elif c == "!":
                openers.append(True)
                pos = i + 2
            else:  # "?["
                end = self._interaction(i)
                pos = i + 1 if end < 0 else end


def scan_inline(text: str, mode: InlineMode, context: Context | None = None) -> InlineScan:
    """Read one inline text; offsets in the result are relative to `text`.

    `context` names the literal context of a LITERAL-mode text (default: an info string).
    """
    return scan_inline_at(text, mode, 0, context)


def _worth_reading(text: str, mode: InlineMode) -> bool:
    if mode is InlineMode.MARKDOWN:
        return _MARKDOWN_SPECIAL.search(text) is not None
    if mode is InlineMode.HTML:
        return _HTML_SPECIAL.search(text) is not None
    return "{{" in text


def scan_inline_at(
    text: str, mode: InlineMode, base: int, context: Context | None = None
) -> InlineScan:
    """`scan_inline` with `base` added to every offset of the result."""
    if not _worth_reading(text, mode):
        return InlineScan()
    reader = _Reader(text, mode, base=base, context=context)
    reader.run()
    return InlineScan(
        markers=tuple(reader.markers),
        invalid=tuple(reader.invalid),
        interactions=tuple(reader.interactions),
        literals=tuple(reader.literals),
    )


def read_inline_into(
    text: str, mode: InlineMode, base: int, sink: _Sink, context: Context | None = None
) -> None:
    """Append what `scan_inline_at` finds to the lists of `sink`, in reading order."""
    if _worth_reading(text, mode):
        _Reader(text, mode, base=base, sink=sink, context=context).run()
