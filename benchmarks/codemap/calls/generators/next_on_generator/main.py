def tick():
    return "tick"


def ticker():
    while True:
        yield tick()


def first_two():
    gen = ticker()
    return next(gen), next(gen)


first_two()
