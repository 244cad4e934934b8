def drive(step):
    return step()


def outer():
    def step():
        return 1

    return drive(step)


outer()
