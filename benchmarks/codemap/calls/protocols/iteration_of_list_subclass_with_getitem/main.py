class Ranked(list):
    def __getitem__(self, key):
        if isinstance(key, str):
            return 0.0
        return super().__getitem__(key)

    def names(self):
        return [item[0] for item in self]


ranked = Ranked([("en", 1.0), ("de", 0.5)])
ranked.names()
ranked["en"]
