import os


def fast(fn):
    return fn


def slow(fn):
    def wrapper():
        return fn()

    return wrapper


deco = fast if os.environ.get("CODEMAP_CASE_FAST") else slow


@deco  # unresolved
def job():
    return 1


job()  # unresolved
