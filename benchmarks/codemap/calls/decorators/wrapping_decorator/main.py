def logged(fn):
    def wrapper(*args):
        return fn(*args)

    return wrapper


@logged
def add(a, b):
    return a + b


def run():
    return add(1, 2)


run()
