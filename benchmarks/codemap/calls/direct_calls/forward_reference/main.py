def first():
    return later()


def later():
    return 2


first()
