def step():
    return 1


def make():
    return step


make()()
