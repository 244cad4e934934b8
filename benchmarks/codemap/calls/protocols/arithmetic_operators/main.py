class Vec:
    def __init__(self, x):
        self.x = x

    def __add__(self, other):
        return Vec(self.x + other.x)

    def __neg__(self):
        return Vec(-self.x)


def run():
    return -(Vec(1) + Vec(2))


run()
