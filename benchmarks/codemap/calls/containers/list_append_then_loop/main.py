def load():
    return 1


def check():
    return 2


PIPELINE = []
PIPELINE.append(load)
PIPELINE.append(check)


def run():
    for stage in PIPELINE:
        stage()


run()
