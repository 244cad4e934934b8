class Problem:
    def __init__(self, text):
        self.text = text

    def __str__(self):
        return self.text


def describe(error=None):
    if error is not None:
        return str(error)
    return "fine"


def check(error=None):
    if error is None:
        return "fine"
    return str(error)


describe(Problem("broken"))
describe()
check(Problem("broken"))
check()
