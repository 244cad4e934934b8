def helper():
    return "global"


def other():
    return "other"


def run(helper):
    return helper()


run(other)
