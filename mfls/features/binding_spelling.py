"""How mfls spells a binding it writes in a course: the one place that decides it.

Every edit mfls offers that writes a binding (quick fixes, source actions, rename and
merges, completion, snippets) and every message that tells an author how to write one
asks `spelling_of(course)`.

Without a learner page to serve (every host but AI-Shifu), a binding is written padded,
`{{ key }}`, or `%{{ key }}` where the course target's runtime binds only that form.

Where a course targets AI-Shifu's learner page (`page_versions`), the page's remark-flow
reads each interaction line again, and reads far less than the SDK: mfls then writes a
binding only in the form `binding_text` gives (unpadded `%{{key}}` where remark-flow 0.1.6
is targeted), pads a binding only where every targeted page version reads it padded,
converts none to the `{{ key }}` form (no page version reads a binding without `%`), and
offers no edit writing a binding of a key that no form makes readable (the page's rename
fix gives such a key a readable name first).
"""

from __future__ import annotations

from collections.abc import Container
from typing import NamedTuple

from mfls.syntax.model import Marker, Role
from mfls.workspace.config import CourseConfig
from mfls.workspace.learner_page import binding_readable, binding_text, page_key, page_versions

_SAMPLE = "key"


def padded(key: str, legacy: bool) -> str:
    """`{{ key }}`, or `%{{ key }}` when `legacy`: the form of a course without a page."""
    return ("%{{ " if legacy else "{{ ") + key + " }}"


class BindingSpelling(NamedTuple):
    """The learner page versions a course targets (none: no page to serve), and what
    that allows mfls to write."""

    versions: tuple[str, ...] = ()

    @property
    def for_page(self) -> bool:
        return bool(self.versions)

    @property
    def pads_bindings(self) -> bool:
        """Whether a binding mfls writes is padded (`%{{ key }}`), or written tight."""
        return not self.versions or binding_text(_SAMPLE, self.versions) != f"%{{{{{_SAMPLE}}}}}"

    def binding(self, key: str, legacy: bool) -> str:
        """The binding of `key` mfls writes: the page's form where a page is targeted,
        else padded (`%` when `legacy`: the target's runtime binds only that form)."""
        if self.versions:
            return binding_text(key, self.versions)
        return padded(key, legacy)

    def writable(self, key: str) -> bool:
        """Whether mfls may write a binding of `key`: always without a page; with one,
        when every targeted version reads some form of it."""
        if not self.versions:
            return True
        return any(binding_readable(key, pad, self.versions) for pad in (False, True))

    def readable(self, key: str, is_padded: bool, legacy: bool) -> bool:
        """Whether every targeted page version reads a binding of `key` written so
        (`legacy`: with its `%`); always true without a page."""
        if not self.versions:
            return True
        return legacy and binding_readable(key, is_padded, self.versions)

    def may_pad(self, marker: Marker) -> bool:
        """Whether padding `marker` (`{{ key }}`) writes nothing the page cannot read:
        a reference always; a binding where every targeted version reads it padded."""
        if marker.role is not Role.BINDING:
            return True
        return self.readable(marker.key, True, marker.legacy)

    @property
    def converts_legacy(self) -> bool:
        """Whether mfls may write a `%{{key}}` binding as `{{ key }}`: never for a page,
        which reads a binding only with its `%`."""
        return not self.versions

    def readable_key(self, key: str, taken: Container[str]) -> str:
        """`key` when the page reads a binding of it, else the readable name the page's
        rename gives it (not one of `taken`)."""
        return key if self.writable(key) else page_key(key, taken)


NO_PAGE = BindingSpelling()


def spelling_of(config: CourseConfig) -> BindingSpelling:
    """The spelling of bindings in a course with this course file."""
    versions = page_versions(config)
    return BindingSpelling(tuple(versions)) if versions else NO_PAGE
