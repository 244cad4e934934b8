def target():
    return 1


def inner():
    return target


def outer():
    return inner()


def run():
    return outer()()


run()
