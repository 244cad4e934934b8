def b():
    return "main"


from util import *  # noqa: E402


def run():
    return a() + b()


run()
