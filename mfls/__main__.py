from mfls.cli import entry

entry()
