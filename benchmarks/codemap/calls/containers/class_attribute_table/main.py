def neg(x):
    return -x


def inv(x):
    return 1 / x


class Calc:
    OPS = {"neg": neg, "inv": inv}

    def run(self):
        return self.OPS["neg"](2)


Calc().run()
