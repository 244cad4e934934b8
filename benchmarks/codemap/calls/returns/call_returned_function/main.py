def helper():
    return "h"


def get_handler():
    return helper


get_handler()()
