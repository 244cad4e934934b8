class Bag(dict):
    def total(self):
        return sum(self.values())


bag = Bag(a=1)
bag.update(b=2)
bag.total()
