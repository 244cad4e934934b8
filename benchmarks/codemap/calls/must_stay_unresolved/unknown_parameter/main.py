import importlib


def apply(fn):
    return fn()  # unresolved


def hello():
    return "hello"


module = importlib.import_module("main")
apply(getattr(module, "hel" + "lo"))
