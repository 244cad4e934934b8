def load():
    return 1


def save():
    return 2


def handlers():
    return load, save


def run():
    loader, saver = handlers()
    return saver()


run()
