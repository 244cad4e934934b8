def add(a, b):
    return a + b


def call(fn, *args):
    return fn(*args)


def relay(*args):
    return call(*args)


relay(add, 1, 2)
