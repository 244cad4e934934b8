def first():
    return 1


def second():
    return 2


PAIR = (first, second)
PAIR[0]()
