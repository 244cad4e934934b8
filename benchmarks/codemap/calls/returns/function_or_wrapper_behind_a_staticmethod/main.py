class Compose:
    def __init__(self, funcs):
        self.funcs = funcs

    def __call__(self, x):
        for f in reversed(self.funcs):
            x = f(x)
        return x


def compose(*funcs):
    # One function needs no wrapper: it is returned as it is.
    if len(funcs) == 1:
        return funcs[0]
    return Compose(funcs)


def inc(x):
    return x + 1


def double(x):
    return 2 * x


def neg(x):
    return -x


def run_single():
    single = compose(inc)
    return single(1)


def run_chain():
    chain = compose(double, neg)

    class Holder:
        apply = staticmethod(chain)

    return Holder.apply(2)


run_single()
run_chain()
