ORDER = []


def first(fn):
    ORDER.append("first")
    return fn


def second(fn):
    ORDER.append("second")
    return fn


@first
@second
def job():
    return 1


job()
