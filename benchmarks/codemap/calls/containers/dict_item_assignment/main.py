def start():
    return "start"


HANDLERS = {}
HANDLERS["start"] = start


def run():
    return HANDLERS["start"]()


run()
