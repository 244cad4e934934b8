def inner(x):
    return x + 1


def outer(x):
    return x * 2


def run():
    return outer(inner(1))


run()
