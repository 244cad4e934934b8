def fetch():
    return 1


def parse():
    return 2


def store():
    return 3


STEPS = [fetch, parse, store]


def resume():
    for step in STEPS[1:]:
        step()


resume()
