import os
import sys


def alpha():
    return "a"


def beta():
    return "b"


def load(name):
    return getattr(sys.modules[__name__], name)


fn = load(os.environ.get("CODEMAP_CASE_NAME", "alpha"))
fn()  # unresolved
