"""Loose forms one edit apart, found by lookups instead of comparisons.

A form of length n has n one-deletion variants: the form without its character at i,
kept with i. Two different forms are one edit apart exactly when one is a variant of the
other (an insertion or a deletion), or both have the same variant at the same place (a
substitution there). Forms of length n meet only forms of lengths n-1, n and n+1, so the
variants are kept per length, each length's table made when a lookup first needs it, as
long as all tables hold at most `MAX_ENTRIES` variants (a lookup that would need more
answers None: its caller compares instead).
"""

from __future__ import annotations

from collections.abc import Iterable

_Table = dict[tuple[str, int], tuple[str, ...]]

MAX_ENTRIES = 60_000
"""Variants kept by all the tables of an index (about 200 bytes each): enough for
thousands of keys of 20 characters."""


def _variants(form: str) -> list[tuple[str, int]]:
    return [(form[:i] + form[i + 1 :], i) for i in range(len(form))]


def _table(forms: Iterable[str]) -> _Table:
    table: dict[tuple[str, int], list[str]] = {}
    for form in forms:
        for variant in _variants(form):
            found = table.get(variant)
            if found is None:
                table[variant] = [form]
            else:
                found.append(form)
    return {variant: tuple(found) for variant, found in table.items()}


class OneEditIndex:
    """Immutable once built (a table made later is the same whenever it is made);
    `updated` shares the lengths no change touches."""

    __slots__ = ("_forms", "_tables")

    def __init__(self, forms: dict[int, frozenset[str]], tables: dict[int, _Table]) -> None:
        self._forms = forms
        self._tables = tables

    def _entries(self) -> int:
        return sum(map(len, list(self._tables.values())))

    @staticmethod
    def build(forms: Iterable[str]) -> OneEditIndex:
        by_length: dict[int, set[str]] = {}
        for form in forms:
            by_length.setdefault(len(form), set()).add(form)
        return OneEditIndex({n: frozenset(found) for n, found in by_length.items()}, {})

    def updated(self, added: Iterable[str], removed: Iterable[str]) -> OneEditIndex:
        """The index with the `added` forms and without the `removed` ones."""
        forms = dict(self._forms)
        tables = dict(self._tables)
        grown: dict[int, list[str]] = {}
        shrunk: dict[int, list[str]] = {}
        for form in added:
            grown.setdefault(len(form), []).append(form)
        for form in removed:
            shrunk.setdefault(len(form), []).append(form)
        for n in grown.keys() | shrunk.keys():
            now = (forms.get(n, frozenset()) - frozenset(shrunk.get(n, ()))) | frozenset(
                grown.get(n, ())
            )
            if now:
                forms[n] = now
            else:
                forms.pop(n, None)
            table = tables.get(n)
            if table is not None:
                tables[n] = _changed(table, grown.get(n, ()), set(shrunk.get(n, ())))
        if sum(map(len, tables.values())) > MAX_ENTRIES:  # made again if they fit
            for n in grown.keys() | shrunk.keys():
                tables.pop(n, None)
        return OneEditIndex(forms, tables)

    def _table_of(self, n: int) -> _Table | None:
        """The variants of the forms of length `n`; None when they would overfill."""
        table = self._tables.get(n)
        if table is None:
            forms = self._forms.get(n, ())
            if self._entries() + len(forms) * n > MAX_ENTRIES:
                return None
            table = self._tables[n] = _table(forms)
        return table

    def neighbours(self, form: str) -> set[str] | None:
        """The forms one edit from `form` (never `form` itself); None when the variants
        of forms of its length or the next would overfill the index."""
        n = len(form)
        same = self._table_of(n) if n in self._forms else {}
        longer = self._table_of(n + 1) if n + 1 in self._forms else {}
        if same is None or longer is None:
            return None
        found: set[str] = set()
        shorter = self._forms.get(n - 1)
        for variant in _variants(form):
            if shorter is not None and variant[0] in shorter:
                found.add(variant[0])
            if same:
                found.update(same.get(variant, ()))
        if longer:
            for i in range(n + 1):
                found.update(longer.get((form, i), ()))
        found.discard(form)
        return found


def _changed(table: _Table, added: Iterable[str], removed: set[str]) -> _Table:
    table = dict(table)
    for form in removed:
        for variant in _variants(form):
            left = tuple(f for f in table.get(variant, ()) if f not in removed)
            if left:
                table[variant] = left
            else:
                table.pop(variant, None)
    for form in added:
        for variant in _variants(form):
            table[variant] = (*table.get(variant, ()), form)
    return table
