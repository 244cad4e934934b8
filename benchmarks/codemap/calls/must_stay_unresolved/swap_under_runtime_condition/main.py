import os


def ping():
    return "ping"


def pong():
    return "pong"


a, b = ping, pong
if os.environ.get("CODEMAP_CASE_SWAP"):
    a, b = b, a
a()  # unresolved
