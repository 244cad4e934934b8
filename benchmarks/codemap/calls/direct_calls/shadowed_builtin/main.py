def len(x):
    return 42


def measure(items):
    return len(items)


measure([1, 2])
print(measure([3]))
