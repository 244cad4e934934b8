class Pair:
    def __iter__(self):
        yield "left"
        yield "right"


def run():
    left, right = Pair()
    return left + right


run()
