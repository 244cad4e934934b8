import functools


def combine(acc, x):
    return acc + x


def total(xs):
    return functools.reduce(combine, xs, 0)


total([1, 2])
