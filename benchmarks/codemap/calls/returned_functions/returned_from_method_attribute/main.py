def handler():
    return "handled"


class Registry:
    def __init__(self):
        self._fn = handler

    def get(self):
        return self._fn


Registry().get()()
