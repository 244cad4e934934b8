def old():
    return "old"


def new():
    return "new"


HOOKS = {"save": old, "save": new}
HOOKS["save"]()
