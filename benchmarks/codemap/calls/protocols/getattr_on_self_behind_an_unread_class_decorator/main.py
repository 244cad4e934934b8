def define(cls):
    return type(cls.__name__, cls.__bases__, dict(cls.__dict__))


@define
class Point:
    def __init__(self, x):
        self.x = x


@define
class Doubling:
    def double(self):
        return self.x * 2

    def __getattr__(self, name):
        return name


@define
class Both(Point, Doubling):
    pass


both = Both(1)  # unresolved
both.double()  # unresolved
both.missing  # unresolved
