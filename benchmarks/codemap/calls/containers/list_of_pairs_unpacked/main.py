def add(a, b):
    return a + b


def mul(a, b):
    return a * b


def run():
    for label, op in [("add", add), ("mul", mul)]:
        op(2, 3)


run()
