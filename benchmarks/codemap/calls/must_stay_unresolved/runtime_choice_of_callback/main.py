import os


def fast():
    return "fast"


def safe():
    return "safe"


def run(cb):
    return cb()  # unresolved


run(fast if os.environ.get("CODEMAP_CASE_FAST") else safe)
