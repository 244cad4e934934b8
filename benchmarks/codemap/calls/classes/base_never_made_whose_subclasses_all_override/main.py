class Context:
    def __init__(self, value):
        self.value = value

    def __enter__(self):
        self.set(self.value)

    def __exit__(self, *exc):
        self.set(None)

    def set(self, value):
        raise NotImplementedError


class Env(Context):
    def set(self, value):
        self.current = value


class Registry(Context):
    def set(self, value):
        self.current = value


with Env("a"):
    pass
with Registry("b"):
    pass
