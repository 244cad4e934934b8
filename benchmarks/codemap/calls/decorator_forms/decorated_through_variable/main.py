def traced(fn):
    def wrapper():
        return fn()

    return wrapper


@traced
def work():
    return 1


job = work
job()
