class Countdown:
    def __init__(self, n):
        self.n = n

    def __iter__(self):
        return self

    def __next__(self):
        if self.n == 0:
            raise StopIteration
        self.n -= 1
        return self.n


def run():
    seen = []
    for i in Countdown(2):
        seen.append(i)
    return seen


run()
