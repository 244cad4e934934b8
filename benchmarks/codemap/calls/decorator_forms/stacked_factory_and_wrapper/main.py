def tag(name):
    def decorate(fn):
        def tagged(*args):
            return fn(*args)

        return tagged

    return decorate


def logged(fn):
    def wrapper(*args):
        return fn(*args)

    return wrapper


@logged
@tag("db")
def query():
    return 1


query()
