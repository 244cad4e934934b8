def first():
    return 1


def second():
    return 2


QUEUE = [first]
QUEUE.append(second)
QUEUE[1]()
