def weight(item):
    return item[1]


def run(items):
    return sorted(items, key=lambda item: weight(item))


run([("a", 2), ("b", 1)])
