def red():
    return "red"


def blue():
    return "blue"


def ident(fn):
    return fn


def paint_red():
    return ident(red)()


def paint_blue():
    return ident(blue)()


paint_red()
paint_blue()
