class NotFound(Exception):
    def __init__(self, key):
        super().__init__(key)
        self.key = key


def not_found(key):
    return NotFound(key)


def lookup(key):
    raise not_found(key)


try:
    lookup("k")
except NotFound:
    pass
