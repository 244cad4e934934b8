import importlib
import os


def apply(fn):
    return fn()  # unresolved


def hello():
    return "hello"


module = importlib.import_module("main")
apply(getattr(module, os.environ.get("CODEMAP_CASE_NAME", "hello")))
