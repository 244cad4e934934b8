class Base:
    handlers = {}

    @classmethod
    def add_handler(cls, tag, handler):
        # Each class keeps its own copy: a handler added to a subclass is not the base's.
        if "handlers" not in cls.__dict__:
            cls.handlers = cls.handlers.copy()
        cls.handlers[tag] = handler

    def build(self, tag):
        return self.handlers[tag](self)

    def read(self):
        return "base"


class Safe(Base):
    def read(self):
        return "safe " + super().read()


class Loader(Safe):
    pass


def on_plain(loader):
    return "plain"


def on_tag(loader):
    return loader.read()


Base.add_handler("p", on_plain)
Loader.add_handler("t", on_tag)
Base().build("p")
Loader().build("t")
