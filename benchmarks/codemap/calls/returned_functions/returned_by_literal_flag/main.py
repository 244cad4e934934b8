def fast():
    return "fast"


def safe():
    return "safe"


def choose(quick):
    return fast if quick else safe


choose(True)()
choose(False)()
