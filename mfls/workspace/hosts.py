"""Host profiles: the keys a host provides and the prefixes it reserves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True)
class HostProfile:
    name: str
    provided_keys: frozenset[str]
    reserved_prefixes: tuple[str, ...]
    title: str = ""

    def provides(self, key: str) -> bool:
        return key in self.provided_keys

    def reserved_prefix_of(self, key: str) -> str | None:
        for prefix in self.reserved_prefixes:
            if key.startswith(prefix):
                return prefix
        return None


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
    return HostProfile(
        base.name, base.provided_keys | frozenset(system_keys), base.reserved_prefixes, base.title
    )
