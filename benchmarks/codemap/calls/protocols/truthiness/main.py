class Box:
    def __init__(self, items):
        self.items = items

    def __bool__(self):
        return bool(self.items)


def run():
    if Box([1]):
        return "full"
    return "empty"


run()
