def helper():
    return 2


def run():
    callback = lambda: helper()  # noqa: E731
    return callback()


run()
