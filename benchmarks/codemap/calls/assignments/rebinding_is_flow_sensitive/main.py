def old():
    return "old"


def new():
    return "new"


handler = old
handler = new
handler()
