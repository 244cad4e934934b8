def warm():
    return 1


def cool():
    return 2


def run():
    for fn in {warm, cool}:
        fn()


run()
