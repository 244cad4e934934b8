class Node:
    children = ()

    def accept_visitor(self, visitor):
        def traverse(node):
            for n in node.children:
                n.accept_visitor(visitor)

        method = getattr(visitor, "visit" + self.__class__.__name__, traverse)
        method(self)


class Code(Node):
    def names(self):
        return {"loop"}


class Block(Node):
    def __init__(self, *children):
        self.children = children

    def names(self):
        return {"block"}


class LoopFinder:
    def __init__(self):
        self.found = False

    def _detect(self, node):
        if "loop" in node.names():
            self.found = True

    def visitCode(self, node):
        self._detect(node)


finder = LoopFinder()
Block(Code()).accept_visitor(finder)
