def _run_v2():
    return 2


run = _run_v2
