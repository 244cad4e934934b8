def on_open():
    return "open"


def on_close():
    return "close"


TABLE = {"open": on_open, "close": on_close}


def fire():
    for name, fn in TABLE.items():
        fn()


fire()
