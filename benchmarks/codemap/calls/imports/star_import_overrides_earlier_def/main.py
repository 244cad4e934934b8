def a():
    return "main"


from util import *  # noqa: E402

a()
