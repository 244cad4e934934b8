import util


def run():
    return util.helper()


run()
