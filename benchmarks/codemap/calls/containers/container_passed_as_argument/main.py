def lint():
    return 0


def test():
    return 0


def run_all(tasks):
    return [task() for task in tasks]


run_all([lint, test])
