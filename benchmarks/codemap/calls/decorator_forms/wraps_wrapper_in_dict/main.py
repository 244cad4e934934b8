import functools


def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args)

    return wrapper


@logged
def ping():
    return "pong"


COMMANDS = {"ping": ping}
COMMANDS["ping"]()
