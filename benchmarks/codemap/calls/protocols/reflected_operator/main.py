class Money:
    def __init__(self, cents):
        self.cents = cents

    def __rmul__(self, factor):
        return Money(self.cents * factor)


def run():
    return 3 * Money(5)


run()
