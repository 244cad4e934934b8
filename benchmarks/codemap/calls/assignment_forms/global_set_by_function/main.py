def real():
    return "real"


handler = None


def setup():
    global handler
    handler = real


setup()
handler()
