class Stack:
    def __init__(self):
        self.items = [1]

    def __len__(self):
        return len(self.items)


class Queue:
    def __init__(self):
        self.items = []

    def __len__(self):
        return len(self.items)


def empty(box):
    if box:
        return False
    return True


empty(Stack())
empty(Queue())
