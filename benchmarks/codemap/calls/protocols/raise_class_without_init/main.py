class Stop(Exception):
    pass


def run():
    try:
        raise Stop
    except Stop:
        return 1


run()
