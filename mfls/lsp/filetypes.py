"""The language ids an editor gives MarkdownFlow buffers (no heavy imports here)."""

LANGUAGE_IDS = frozenset({"markdown", "markdownflow"})
