class Version:
    def __init__(self, n):
        self.n = n

    def __eq__(self, other):
        return self.n == other.n

    def __lt__(self, other):
        return self.n < other.n


def run():
    a, b = Version(1), Version(2)
    return a == b, a < b


run()
