from functools import partial


def power(base, exp):
    return base**exp


def run():
    square = partial(power, exp=2)
    return square(3)


run()
