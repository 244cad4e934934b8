class Point:
    def __init__(self, x):
        self.x = x

    def __str__(self):
        return f"P{self.x}"

    def __repr__(self):
        return "Point()"


def run():
    p = Point(1)
    return str(p), f"{p}", repr(p)


run()
