from functools import cmp_to_key


def compare(a, b):
    return a - b


def run(xs):
    return sorted(xs, key=cmp_to_key(compare))


run([3, 1, 2])
