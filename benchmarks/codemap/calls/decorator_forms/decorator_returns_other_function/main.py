def replacement():
    return "new"


def swap(fn):
    return replacement


@swap
def original():
    return "old"


original()
