"""Layer 1: neutral text helpers used by the command line, the server and the features."""
