"""Layer 1: neutral text helpers for the command line and the server alike.

Line indexes and code-unit counting, plain text edits, unified diffs. Nothing here
imports another part of mfls.
"""
