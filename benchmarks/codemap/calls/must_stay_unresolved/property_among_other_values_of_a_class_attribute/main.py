def getter(self):
    return len


class Finder:
    storage = None

    def run(self):
        return self.storage("x")


def configure(v):
    setattr(Finder, "storage", v)


configure(property(getter))
configure(str)
Finder().run()
