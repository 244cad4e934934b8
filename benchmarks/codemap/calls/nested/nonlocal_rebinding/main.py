import os


def first():
    return 1


def second():
    return 2


def run():
    fn = first

    def switch():
        nonlocal fn
        fn = second

    if os.environ.get("CODEMAP_CASE_KEEP") is None:
        switch()
    return fn()  # unresolved


run()
