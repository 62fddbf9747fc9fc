"""Which files and language ids mfls reads as MarkdownFlow (no heavy imports here)."""

MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdflow")
LANGUAGE_IDS = frozenset({"markdown", "markdownflow"})
