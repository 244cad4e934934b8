def double(x):
    return 2 * x


def triple(x):
    return 3 * x


def apply(fn, x):
    return fn(x)


apply(double, 1)
apply(triple, 1)
