def double(x):
    return 2 * x


def each(fn, xs):
    return list(map(fn, xs))


each(double, [1, 2])
