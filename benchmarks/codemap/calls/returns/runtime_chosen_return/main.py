import os


def fast():
    return "fast"


def safe():
    return "safe"


def choose():
    if os.environ.get("CODEMAP_CASE_FAST"):
        return fast
    return safe


chosen = choose()
chosen()  # unresolved
