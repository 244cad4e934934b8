def first():
    return 1


def second():
    return 2


class Hook:
    def __init__(self):
        self.cb = first

    def fire(self):
        return self.cb()


hook = Hook()
hook.cb = second
hook.fire()
