"""Layer 2: courses, their configuration, and the immutable index snapshot."""
