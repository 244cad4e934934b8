class Widget:
    def __init__(self):
        self.size = 1


def kind():
    return Widget


def build():
    cls = kind()
    return cls()


build()
