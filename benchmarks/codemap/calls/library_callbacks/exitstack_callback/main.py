from contextlib import ExitStack


def release(name):
    return name


def run():
    with ExitStack() as stack:
        stack.callback(release, "lock")
        return 1


run()
