import a
import b
from a import run


def run_all():
    return a.run() + b.run() + run()


run_all()
