def logged(fn):
    def wrapper(*args):
        return fn(*args)

    return wrapper


def add(a, b):
    return a + b


add = logged(add)
add(1, 2)
