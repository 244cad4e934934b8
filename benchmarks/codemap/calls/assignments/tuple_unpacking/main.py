def left():
    return "l"


def right():
    return "r"


a, b = left, right
b()
