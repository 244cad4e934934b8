def work():
    return 1


def helper():
    return 2
