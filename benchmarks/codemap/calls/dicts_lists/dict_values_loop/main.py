def on_start():
    return "start"


def on_stop():
    return "stop"


HANDLERS = {"start": on_start, "stop": on_stop}


def fire_all():
    return [h() for h in HANDLERS.values()]


fire_all()
