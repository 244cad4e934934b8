class Events:
    def __init__(self):
        self.listeners = []

    def subscribe(self, fn):
        self.listeners.append(fn)

    def emit(self):
        for fn in self.listeners:
            fn()


def log():
    return "log"


def count():
    return 1


bus = Events()
bus.subscribe(log)
bus.subscribe(count)
bus.emit()
