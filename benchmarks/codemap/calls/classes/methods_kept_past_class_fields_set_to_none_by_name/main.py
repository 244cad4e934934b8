import os


class Repos:
    def find(self, key):
        return key


def controller(cls):
    prefix = os.environ.get("CODEMAP_CASE_PREFIX", "_")
    for name in list(cls.__annotations__):
        if name.startswith(prefix):
            setattr(cls, name, None)
    return cls


@controller
class Recipes:
    _repos: Repos

    def __init__(self):
        self._repos = Repos()

    def lookup(self, key):
        return self._repos.find(key)

    def get(self, key):
        return self.lookup(key)


Recipes().get("x")
