def square(x):
    return x * x


def run(xs):
    return sum(square(x) for x in xs)


run([1, 2])
