def timed(fn):
    def inner():
        return fn()

    return inner
