from functools import partial


class curry:
    def __init__(self, func, *args):
        # Each curry keeps its own partial: the function it wraps and the arguments bound so far.
        self._partial = partial(func, *args)

    def __call__(self, *args):
        return self._partial(*args)


def keymap(func, d):
    return dict(zip(map(func, d.keys()), d.values()))


def memoize(func):
    cache = {}

    def memof(x):
        if x not in cache:
            cache[x] = func(x)
        return cache[x]

    return memof


def inc(x):
    return x + 1


def square(x):
    return x * x


curried_keymap = curry(keymap)
curried_memoize = curry(memoize)
curried_keymap(inc, {1: 2})
fast_square = curried_memoize(square)
fast_square(3)
