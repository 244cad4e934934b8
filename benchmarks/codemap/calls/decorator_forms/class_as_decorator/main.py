class Traced:
    def __init__(self, fn):
        self.fn = fn

    def __call__(self, *args):
        return self.fn(*args)


@Traced
def add(a, b):
    return a + b


add(1, 2)
