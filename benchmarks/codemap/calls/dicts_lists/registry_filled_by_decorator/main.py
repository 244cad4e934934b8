import sys

COMMANDS = {}


def command(name):
    def register(fn):
        COMMANDS[name] = fn
        return fn

    return register


@command("hello")
def hello():
    return "hi"


@command("bye")
def bye():
    return "bye"


def dispatch(name):
    return COMMANDS[name]()  # unresolved


dispatch(sys.argv[0][:0] or "hello")
