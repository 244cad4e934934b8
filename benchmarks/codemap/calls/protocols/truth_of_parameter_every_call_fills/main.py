class Headers:
    def __init__(self, items):
        self.items = items

    def __len__(self):
        return len(self.items)


def send(headers=None):
    if headers:
        return "with headers"
    return "without"


send(Headers(["accept"]))
send(headers=Headers([]))
