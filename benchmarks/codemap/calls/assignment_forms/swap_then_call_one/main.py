def ping():
    return "ping"


def pong():
    return "pong"


def run():
    a, b = ping, pong
    a, b = b, a
    return a()


run()
