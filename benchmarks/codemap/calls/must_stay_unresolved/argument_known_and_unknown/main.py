import os


def local():
    return "local"


def remote():
    return "remote"


def apply(fn):
    return fn()  # unresolved


apply(local)
apply(globals()[os.environ.get("CODEMAP_CASE_FN", "remote")])
