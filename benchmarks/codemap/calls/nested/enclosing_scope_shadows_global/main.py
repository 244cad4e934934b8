def helper():
    return "global"


def outer():
    def helper():
        return "local"

    def inner():
        return helper()

    return inner()


outer()
