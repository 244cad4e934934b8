def work():
    return 1
