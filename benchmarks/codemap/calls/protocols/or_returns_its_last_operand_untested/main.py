class Fallback:
    def __init__(self):
        self.items = []

    def __len__(self):
        return len(self.items)


def pick(given):
    return given or Fallback()


pick({"a": 1})
pick({})
