def fa():
    return "a"


def fb():
    return "b"


def fc():
    return "c"


def run():
    x, (y, z) = fa, (fb, fc)
    return z()


run()
