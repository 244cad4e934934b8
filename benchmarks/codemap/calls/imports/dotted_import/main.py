import pkg.sub.mod
import pkg.sub.mod as m


def run():
    return pkg.sub.mod.work() + m.work()


run()
