def load():
    return 1


def clean():
    return 2


def run():
    for step in [load, clean]:
        step()


run()
