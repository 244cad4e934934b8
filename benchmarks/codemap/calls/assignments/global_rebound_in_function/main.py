def default():
    return "default"


def custom():
    return "custom"


handler = default


def configure():
    global handler
    handler = custom


configure()
handler()  # unresolved
