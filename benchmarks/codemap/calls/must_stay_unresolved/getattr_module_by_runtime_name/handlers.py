def ping():
    return "pong"


def stop():
    return "stopped"
