"""The language of the messages the command line prints: `--locale`, else the
environment's locale (`LC_ALL`, `LC_MESSAGES`, `LANG`, the first one set, as POSIX reads
them)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping

from mfls.features.messages import AUTO, LANGUAGES, language_of

CHOICES = (AUTO, *LANGUAGES)
_ENVIRONMENT = ("LC_ALL", "LC_MESSAGES", "LANG")


def add_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--locale",
        choices=CHOICES,
        default=AUTO,
        help="language of the messages: en, zh-CN, or auto (the default: from LC_ALL, "
        "LC_MESSAGES or LANG)",
    )


def chosen(option: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The catalog language for `--locale` `option`."""
    if option is not None and option != AUTO:
        return option
    environ = os.environ if environ is None else environ
    for name in _ENVIRONMENT:
        value = environ.get(name)
        if value:
            return language_of(value)
    return language_of(None)
