from util import helper, other


def run():
    return helper() + other()


run()
