__all__ = ["a"]


def a():
    return "util"


def b():
    return "util"
