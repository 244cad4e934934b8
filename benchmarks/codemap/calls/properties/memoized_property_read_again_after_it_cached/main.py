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


def install(template):
    return template.cache


t = Template()
install(t)
t.cache.invalidate()
