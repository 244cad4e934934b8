class Counter:
    def __init__(self):
        self.n = 0

    def __iadd__(self, k):
        self.n += k
        return self


def run():
    c = Counter()
    c += 2
    return c.n


run()
