"""Applying refactorings to files: text edits, unified diffs, atomic multi-file writes."""
