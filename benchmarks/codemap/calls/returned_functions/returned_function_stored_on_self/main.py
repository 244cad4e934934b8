def greet():
    return "hi"


def factory():
    return greet


class Bot:
    def __init__(self):
        self.speak = factory()

    def talk(self):
        return self.speak()


Bot().talk()
