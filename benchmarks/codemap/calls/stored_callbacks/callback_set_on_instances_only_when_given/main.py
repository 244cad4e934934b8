class Cache:
    def __init__(self, maxsize, getsizeof=None):
        if getsizeof:
            self.getsizeof = getsizeof
        self.maxsize = maxsize

    @staticmethod
    def getsizeof(value):
        return 1


def check_defaults():
    cache = Cache(maxsize=1)
    return cache.getsizeof(None)


def check_sized():
    cache = Cache(maxsize=3, getsizeof=lambda x: x)
    return cache.maxsize


check_defaults()
check_sized()
