class Low(Exception):
    def __init__(self):
        super().__init__("low")


class High(Exception):
    def __init__(self):
        super().__init__("high")


def run():
    try:
        raise High from Low
    except High as exc:
        return exc.__cause__


run()
