import os


def default():
    return "default"


def custom():
    return "custom"


handler = default


def configure():
    global handler
    handler = custom


if os.environ.get("CODEMAP_CASE_DEFAULT") is None:
    configure()
handler()  # unresolved
