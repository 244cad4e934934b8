def first():
    return 1


def second():
    return 2


STEPS = [first, second]
STEPS[1]()
