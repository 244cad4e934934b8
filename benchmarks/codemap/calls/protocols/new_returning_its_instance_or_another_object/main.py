import os


class Other:
    def run(self):
        return "other"


class Base:
    def __new__(cls):
        return super().__new__(cls) if os.environ.get("X") else Other()

    def run(self):
        return "base"


class Sub(Base):
    def run(self):
        return "sub"


def use_base():
    return Base().run()


def use_sub():
    return Sub().run()


use_base()
use_sub()
