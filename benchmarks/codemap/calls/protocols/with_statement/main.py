class Lock:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def run():
    with Lock():
        return 1


run()
