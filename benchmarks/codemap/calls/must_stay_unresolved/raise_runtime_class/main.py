import os


class Timeout(Exception):
    def __init__(self):
        super().__init__("timeout")


class Refused(Exception):
    def __init__(self):
        super().__init__("refused")


def fail():
    raise Timeout if os.environ.get("CODEMAP_CASE_REFUSED") is None else Refused  # unresolved


try:
    fail()
except Exception:
    pass
