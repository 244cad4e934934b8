def a():
    return 1


def b():
    return 2


def c():
    return 3


def run():
    head, *rest = [a, b, c]
    head()
    for fn in rest:
        fn()


run()
