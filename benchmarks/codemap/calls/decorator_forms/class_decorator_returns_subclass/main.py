def describable(cls):
    class Described(cls):
        def describe(self):
            return "a " + self.name

    return Described


@describable
class Thing:
    def __init__(self):
        self.name = "thing"


Thing().describe()
