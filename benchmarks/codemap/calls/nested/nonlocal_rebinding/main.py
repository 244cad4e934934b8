def first():
    return 1


def second():
    return 2


def run():
    fn = first

    def switch():
        nonlocal fn
        fn = second

    switch()
    return fn()  # unresolved


run()
