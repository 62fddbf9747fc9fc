"""Host profiles: the keys a host provides and reserves, and which literal markers it
substitutes."""

from __future__ import annotations

from typing import Final, NamedTuple

from mfls.syntax.model import Context, Marker


class HostProfile(NamedTuple):
    name: str
    provided_keys: frozenset[str]
    reserved_prefixes: tuple[str, ...]
    title: str = ""
    # Keys whose legacy `%{{key}}` binding the host still accepts although their prefix
    # is reserved (AI-Shifu's LEGACY_LEARNER_PROFILE_KEYS).
    legacy_profile_keys: frozenset[str] = frozenset()
    # Literal contexts whose markers the host never substitutes.
    dropped_contexts: frozenset[Context] = frozenset()
    # Who drops them, for messages: "markdown-flow" (the SDK the host runs).
    runtime: str = ""

    def provides(self, key: str) -> bool:
        return key in self.provided_keys

    def reserved_prefix_of(self, key: str) -> str | None:
        for prefix in self.reserved_prefixes:
            if key.startswith(prefix):
                return prefix
        return None

    def substitutes(self, marker: Marker) -> bool:
        """True when the host replaces `marker` by its answer: every marker outside a
        literal context, and a literal one unless its context is dropped."""
        return not marker.literal or marker.context not in self.dropped_contexts

    def is_legacy_profile_binding(self, marker: Marker) -> bool:
        return marker.legacy and marker.key in self.legacy_profile_keys


# AI-Shifu runs markdown-flow: it removes HTML comments before the AI sees the text and
# keeps a fenced code block, its info string included, as written (tests/hosts).
_MARKDOWN_FLOW_DROPS: Final = frozenset({Context.HTML_COMMENT, Context.INFO_STRING})

_BUILTIN: Final[dict[str, HostProfile]] = {
    "generic": HostProfile("generic", frozenset(), (), "a generic host"),
    "ai-shifu": HostProfile(
        "ai-shifu",
        frozenset(
            {
                "sys_user_nickname",
                "sys_user_style",
                "sys_user_background",
                "sys_user_input",
                "sys_user_language",
            }
        ),
        ("sys_",),
        "AI-Shifu",
        legacy_profile_keys=frozenset(
            {"sys_user_nickname", "sys_user_background", "sys_user_style"}
        ),
        dropped_contexts=_MARKDOWN_FLOW_DROPS,
        runtime="markdown-flow",
    ),
    "playground": HostProfile(
        "playground", frozenset({"browser_language"}), (), "the MarkdownFlow playground"
    ),
}

HOST_NAMES: Final = tuple(_BUILTIN)


def host_profile(name: str, system_keys: tuple[str, ...] = ()) -> HostProfile:
    """The profile of `name` (generic when unknown) plus a course's own system keys."""
    base = _BUILTIN.get(name, _BUILTIN["generic"])
    if not system_keys:
        return base
    return base._replace(provided_keys=base.provided_keys | frozenset(system_keys))
