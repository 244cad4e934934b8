from deco import timed


@timed
def work():
    return 5


work()
