class Basket:
    def __init__(self):
        self.items = ["apple"]

    def __len__(self):
        return len(self.items)

    def __contains__(self, item):
        return item in self.items


def run():
    basket = Basket()
    return len(basket), "apple" in basket


run()
