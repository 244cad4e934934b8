def a():
    return "util"
