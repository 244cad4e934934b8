import os

import handlers


def main():
    name = os.environ.get("CODEMAP_CASE_HANDLER", "ping")
    return getattr(handlers, name)()  # unresolved


main()
