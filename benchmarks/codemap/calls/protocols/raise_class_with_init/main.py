class Failed(Exception):
    def __init__(self):
        super().__init__("failed")


def run():
    try:
        raise Failed
    except Failed:
        return "caught"


run()
