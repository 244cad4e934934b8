def job():
    return 1


first = second = job


def run_first():
    return first()


def run_second():
    return second()


run_first()
run_second()
