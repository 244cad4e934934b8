def default_size():
    return 10


def compute():
    return 3


LIMIT = compute()


def make(size=default_size()):
    return size


make()
