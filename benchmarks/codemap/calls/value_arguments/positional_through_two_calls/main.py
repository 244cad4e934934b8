def greet():
    return "hi"


def inner(fn):
    return fn()


def outer(fn):
    return inner(fn)


outer(greet)
