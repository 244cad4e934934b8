def api():
    return _hidden()


def _hidden():
    return 0
