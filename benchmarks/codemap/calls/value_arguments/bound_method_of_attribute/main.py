class Store:
    def save(self, item):
        return item


def each(items, fn):
    for item in items:
        fn(item)


class App:
    def __init__(self):
        self.store = Store()

    def go(self):
        each([1, 2], self.store.save)


App().go()
