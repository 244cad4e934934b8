import os


def plain(text):
    return text


def loud(text):
    return text + "!"


class Env:
    def __init__(self, **options):
        self.finalize = plain
        for key, value in options.items():
            setattr(self, key, value)

    def make_globals(self, data):
        return dict(data)

    def from_string(self, source):
        data = self.make_globals({"s": source})
        return self.finalize(data["s"])  # unresolved


env = Env(**{os.environ.get("CODEMAP_CASE_ATTR", "finalize"): loud})
env.from_string("x")
