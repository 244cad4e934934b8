def weigh(value):
    return len(value)


class Cache:
    getsizeof = None

    def __init__(self, maxsize, getsizeof=None):
        if getsizeof:
            self.getsizeof = getsizeof
        self.maxsize = maxsize

    def size(self, value):
        if self.getsizeof is None:
            return 1
        return self.getsizeof(value)


def check_sized():
    cache = Cache(3, getsizeof=weigh)
    return cache.size("abc")


def check_defaults():
    cache = Cache(1)
    return cache.size("abc")


check_sized()
check_defaults()
