def target():
    return 1


def inner(*, cb):
    return cb()


def middle(**kw):
    return inner(**kw)


middle(cb=target)
