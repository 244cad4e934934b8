def square(x):
    return x * x


def bind(fn, x):
    def call():
        return fn(x)

    return call


bind(square, 3)()
