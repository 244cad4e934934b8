def run():
    import util

    return util.f()


def lazy():
    from util import g

    return g()


run()
lazy()
