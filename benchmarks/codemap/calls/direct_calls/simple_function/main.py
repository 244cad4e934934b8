def helper():
    return 1


def compute():
    return helper() + helper()


compute()
