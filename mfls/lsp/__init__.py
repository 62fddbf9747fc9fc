"""Helpers of the LSP front end: position encodings, settings, conversions, timing."""
