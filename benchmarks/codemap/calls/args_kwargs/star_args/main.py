def a():
    return 1


def b():
    return 2


def call_all(*fns):
    return [f() for f in fns]


call_all(a, b)
