class Scope:
    def __new__(cls, *, shield=False):
        made = super().__new__(cls)
        made.entered = False
        return made

    def __init__(self, *, shield=False):
        self.shield = shield

    def __enter__(self):
        self.entered = True
        return self

    def __exit__(self, *exc):
        return False


class Plain:
    def __new__(cls):
        return object.__new__(cls)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


with Scope(shield=True) as scope:
    pass

with Plain():
    pass
