def load():
    return 1


def save():
    return 2


def steps():
    yield load
    yield save


def run():
    for step in steps():
        step()


run()
