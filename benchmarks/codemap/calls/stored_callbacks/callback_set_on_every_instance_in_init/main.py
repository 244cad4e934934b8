def weigh(value):
    return len(value)


class Cache:
    def __init__(self, maxsize, getsizeof):
        self.getsizeof = getsizeof
        self.maxsize = maxsize

    @staticmethod
    def getsizeof(value):
        return 1


def check_sized():
    cache = Cache(3, weigh)
    return cache.getsizeof("abc")


check_sized()
