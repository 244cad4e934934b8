def work():
    return 1


def run():
    if (fn := work) is not None:
        return fn()
    return None


run()
