class Expr:
    def __add__(self, other):
        # Another operand type hands the operator to that operand's __radd__.
        if not isinstance(other, Expr):
            return NotImplemented
        return Expr()

    def __radd__(self, other):
        return Expr()

    def __or__(self, other):
        if not isinstance(other, Expr):
            return NotImplemented
        return Expr()

    def __ror__(self, other):
        return NotImplemented


def build():
    a = Expr()
    b = Expr()
    c = Expr()
    seq = a + b + c
    return seq | c


def build_from_text():
    return "x" + Expr()


build()
build_from_text()
