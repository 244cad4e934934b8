class State:
    def __init__(self):
        super().__setattr__("_state", {"user": "ada"})

    def __setattr__(self, key, value):
        self._state[key] = value

    def __getattr__(self, key):
        return self._state[key]

    def names(self):
        return sorted(self._state)


class Point:
    def __init__(self, x):
        object.__setattr__(self, "x", x)

    def __setattr__(self, key, value):
        raise AttributeError(key)

    def __getattr__(self, key):
        return 0

    def double(self):
        return self.x * 2


print(State().names(), Point(2).double())
