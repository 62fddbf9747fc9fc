"""mfls: the MarkdownFlow language server."""

__version__ = "0.1.0"

from mfls import build

build.choose()
