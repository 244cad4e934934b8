class Table:
    def __init__(self):
        self.rows = {"a": 1}

    def __getitem__(self, key):
        return self.rows[key]


class Cache:
    def __init__(self):
        self.table = None

    def get(self, key):
        if self.table is None:
            self.table = Table()
        return self.table[key]


Cache().get("a")
