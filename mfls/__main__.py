"""`python3 -m mfls`: the command line (`mfls.cli.entry`)."""

from mfls.cli import entry

entry()
