from . import c
from .b import g
from .sub.x import deep


def run():
    return g() + c.h() + deep()
