def a():
    return 1


def b():
    return 2


def c():
    return 3


def d():
    return 4


def run():
    first, *middle, last = (a, b, c, d)
    last()
    return middle[0]()


run()
