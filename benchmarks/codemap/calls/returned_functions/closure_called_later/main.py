def counter():
    count = [0]

    def inc():
        count[0] += 1
        return count[0]

    return inc


def run():
    tick = counter()
    tick()
    return tick()


run()
