class Element:
    def __init__(self, text):
        self.text = text

    @classmethod
    def using_each(cls, seq):
        return [cls(item) for item in seq]


class Literal(Element):
    def __init__(self, text):
        super().__init__(text)


class Keyword(Element):
    def __init__(self, text):
        super().__init__(text.upper())


class Block(Element):
    class _Indent(Element):
        def __init__(self, column):
            super().__init__(" " * column)

    def __init__(self, column):
        super().__init__("")
        self.indent = Block._Indent(column)


LPAR, RPAR = Literal.using_each("()")
IF, ELSE = Keyword.using_each(["if", "else"])
Block(4)
