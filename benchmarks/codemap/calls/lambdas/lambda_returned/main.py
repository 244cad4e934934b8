def helper():
    return 3


def make():
    return lambda: helper()


make()()
