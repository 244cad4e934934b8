def default():
    return "default"


def special():
    return "special"


class Base:
    def __init__(self):
        self.handler = default

    def run(self):
        return self.handler()


class Special(Base):
    def __init__(self):
        super().__init__()
        self.handler = special


Base().run()
Special().run()
