class Node:
    def accept(self, visitor):
        method = getattr(visitor, "visit" + type(self).__name__, visitor.default)
        return method(self)

    def label(self):
        return "node"


class Block(Node):
    def label(self):
        return "block"


class Loop(Block):
    def label(self):
        return "loop"


class Text(Node):
    def label(self):
        return "text"


class Visitor:
    def visitBlock(self, node):
        return node.label()

    def default(self, node):
        return node.label()


visitor = Visitor()
Block().accept(visitor)
Loop().accept(visitor)
Text().accept(visitor)
