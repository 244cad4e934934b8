def double(x):
    return 2 * x


def apply(fn, x):
    return fn(x)


apply(double, 3)
