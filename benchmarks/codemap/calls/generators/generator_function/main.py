def helper(i):
    return i * 2


def numbers(n):
    for i in range(n):
        yield helper(i)


def total():
    return sum(x for x in numbers(3))


total()
