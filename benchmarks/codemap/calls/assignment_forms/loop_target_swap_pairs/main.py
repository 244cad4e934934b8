def encode(x):
    return x


def decode(x):
    return x


def run():
    for first, second in [(encode, decode)]:
        first, second = second, first
        second(1)


run()
