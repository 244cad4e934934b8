def helper():
    return 1


(lambda: helper())()
