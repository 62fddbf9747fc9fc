from rename_support import make_course

__all__ = ["make_course"]
