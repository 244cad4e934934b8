class Ticker:
    def __init__(self):
        self.cb = lambda: self.tick()

    def tick(self):
        return 1

    def fire(self):
        return self.cb()


Ticker().fire()
