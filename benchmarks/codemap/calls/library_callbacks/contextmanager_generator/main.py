from contextlib import contextmanager


def acquire():
    return 1


def release():
    return 0


@contextmanager
def held():
    acquire()
    try:
        yield
    finally:
        release()


def run():
    with held():
        return 1


run()
