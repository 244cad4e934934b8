from util import *


def run():
    return a() + b()


run()
