def cmd_init():
    return "init"


def cmd_status():
    return "status"


def helper():
    return "helper"
