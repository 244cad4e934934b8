def fallback():
    return "fallback"


def custom():
    return "custom"


def run(cb=None):
    return (cb or fallback)()


run()
run(custom)
