import util as u
from util import helper as h


def run():
    return u.helper() + h() + u.other()


run()
