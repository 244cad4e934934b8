from .impl import execute


def pick():
    return execute
