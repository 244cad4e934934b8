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
    def __init__(self, name):
        self.name = name

    @memoized_property
    def cache(self):
        return Cache()


def install(template):
    return template.cache


def rename(template):
    template.name = template.name.upper()
    return template.cache.invalidate()


def invalidate_all(templates):
    for template in templates:
        template.cache.invalidate()


first = Template("a")
install(first)
rename(Template("b"))
invalidate_all([Template("c"), Template("d")])
