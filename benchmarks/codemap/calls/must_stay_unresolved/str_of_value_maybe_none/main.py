class Problem:
    def __init__(self, text):
        self.text = text

    def __str__(self):
        return self.text


def describe(error=None):
    return str(error)  # unresolved


describe(Problem("broken"))
describe()
