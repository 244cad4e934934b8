def compose(f):
    def with_g(g):
        def both():
            return g(f())

        return both

    return with_g


def one():
    return 1


def show(x):
    return x


compose(one)(show)()
