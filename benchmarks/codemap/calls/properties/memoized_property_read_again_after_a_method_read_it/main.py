class memoized_property:
    def __init__(self, fget):
        self.fget = fget
        self.__name__ = fget.__name__

    def __get__(self, obj, cls):
        if obj is None:
            return self
        obj.__dict__[self.__name__] = result = self.fget(obj)
        return result


class Cache:
    def invalidate(self):
        return "invalidated"


class Template:
    @memoized_property
    def cache(self):
        return Cache()

    def warm(self):
        return self.cache


def reset():
    template = Template()
    template.warm()
    return template.cache.invalidate()


reset()
