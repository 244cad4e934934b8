def on_event():
    return "event"


class Emitter:
    def __init__(self, callback):
        self.callback = callback

    def fire(self):
        return self.callback()


Emitter(on_event).fire()
