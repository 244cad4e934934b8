class Item:
    def __init__(self, n):
        self.n = n

    def rank(self):
        return -self.n


def run():
    items = [Item(2), Item(1)]
    items.sort(key=Item.rank)
    return items


run()
