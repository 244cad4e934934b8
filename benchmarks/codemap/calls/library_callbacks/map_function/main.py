def square(x):
    return x * x


def run():
    return list(map(square, [1, 2]))


run()
