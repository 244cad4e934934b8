class Doubler:
    def __call__(self, x):
        return 2 * x


def apply(fn, x):
    return fn(x)


apply(Doubler(), 3)
