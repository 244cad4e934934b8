import atexit


def flush():
    return "flushed"


def setup():
    atexit.register(flush)


setup()
