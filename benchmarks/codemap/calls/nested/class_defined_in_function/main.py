def make():
    class Local:
        def value(self):
            return 7

    return Local().value()


make()
