def parse(s):
    return int(s)


def keep(x):
    return x > 0


def run(items):
    values = [parse(s) for s in items if keep(int(s))]
    index = {parse(s): s for s in items}
    return values, index


run(["1", "2"])
