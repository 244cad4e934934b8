import os


def open_file():
    return "file"


def open_url():
    return "url"


OPENERS = {"file": open_file}
OPENERS[os.environ.get("CODEMAP_CASE_KIND", "url")] = open_url
OPENERS["file"]()  # unresolved
