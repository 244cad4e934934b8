import os


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


OPS = {"add": add, "sub": sub}
op = os.environ.get("CODEMAP_CASE_OP", "add")
OPS[op](1, 2)  # unresolved
