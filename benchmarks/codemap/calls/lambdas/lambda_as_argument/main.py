def helper():
    return 4


def apply(fn):
    return fn()


apply(lambda: helper())
