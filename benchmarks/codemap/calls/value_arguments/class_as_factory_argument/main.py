class Widget:
    def __init__(self, name):
        self.name = name


def build(factory):
    return factory("w")


build(Widget)
