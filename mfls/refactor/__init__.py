"""Text edits and unified diffs (the file writer is `mfls.disk.replacing`)."""
