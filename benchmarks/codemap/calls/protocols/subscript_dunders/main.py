class Table:
    def __init__(self):
        self.rows = {}

    def __getitem__(self, key):
        return self.rows[key]

    def __setitem__(self, key, value):
        self.rows[key] = value


def run():
    table = Table()
    table["a"] = 1
    return table["a"]


run()
