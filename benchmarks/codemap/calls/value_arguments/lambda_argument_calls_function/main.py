def work():
    return 1


def later(fn):
    return fn()


def run():
    return later(lambda: work())


run()
