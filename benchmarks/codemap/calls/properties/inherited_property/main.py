class Named:
    @property
    def label(self):
        return self.prefix() + "x"

    def prefix(self):
        return "n:"


class User(Named):
    pass


User().label
