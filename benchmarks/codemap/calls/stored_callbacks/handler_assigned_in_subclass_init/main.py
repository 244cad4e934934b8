def on_a():
    return "a"


def on_b():
    return "b"


class Base:
    def run(self):
        return self.handler()


class A(Base):
    def __init__(self):
        self.handler = on_a


class B(Base):
    def __init__(self):
        self.handler = on_b


A().run()
B().run()
