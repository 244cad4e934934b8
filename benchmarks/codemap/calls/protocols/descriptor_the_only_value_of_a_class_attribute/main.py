class Desc:
    def __get__(self, o, t):
        return len


class Finder:
    storage = None

    def run(self):
        return self.storage("x")


def configure(v):
    setattr(Finder, "storage", v)


configure(Desc())
Finder().run()
