from ..b import g


def deep():
    return g()
