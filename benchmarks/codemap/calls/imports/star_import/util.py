def a():
    return 1


def b():
    return 2


def _private():
    return 3
