def helper():
    return 1


def outer():
    def inner():
        return helper()

    return inner()


outer()
