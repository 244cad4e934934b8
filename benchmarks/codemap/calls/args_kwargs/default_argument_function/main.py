def default_cb():
    return "default"


def other_cb():
    return "other"


def run(cb=default_cb):
    return cb()


run()
run(other_cb)
