class Bag:
    def __init__(self, items):
        self.items = items

    def __iter__(self):
        return iter(self.items)


def total(bag):
    n = 0
    for x in bag:
        n += x
    return n


total(Bag([1, 2]))
