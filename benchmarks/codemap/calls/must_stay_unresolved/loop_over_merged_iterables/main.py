class Batch:
    def __init__(self, rows):
        self.rows = rows

    def __iter__(self):
        return iter(self.rows)


def pick(first, second):
    return first if first is not None else second


def count(rows):
    total = 0
    for _ in rows:
        total += 1
    return total


batch = pick(None, Batch([1, 2]))
count(pick([1, 2, 3], None))
