def add(a, b):
    return a + b


def sub(a, b):
    return a - b


OPS = {"add": add, "sub": sub}


def run():
    return OPS["add"](1, 2)


run()
