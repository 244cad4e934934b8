class Base:
    def __init__(self):
        self.ready = True

    def greet(self):
        return "hi"


class Child(Base):
    def extra(self):
        return self.greet()


c = Child()
c.greet()
c.extra()
