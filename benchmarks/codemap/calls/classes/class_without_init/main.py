class Plain:
    def go(self):
        return 1


def run():
    p = Plain()
    return p.go()


run()
