class Timer:
    def __init__(self, fn):
        self.fn = fn

    def fire(self):
        return self.fn()


class Clock:
    def __init__(self):
        self.timer = Timer(self.tick)

    def tick(self):
        return "tick"


Clock().timer.fire()
