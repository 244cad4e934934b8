class Node:
    def children(self):
        return ()


class Const(Node):
    def value(self):
        return 1


class BinaryOp(Node):
    def __init__(self, left, right):
        self.left = left
        self.right = right

    def children(self):
        return (self.left, self.right)

    def value(self):
        return 2


class NodeVisitor:
    _method_cache = None

    def visit(self, node):
        if self._method_cache is None:
            self._method_cache = {}
        visitor = self._method_cache.get(node.__class__.__name__, None)
        if visitor is None:
            method = "visit_" + node.__class__.__name__
            visitor = getattr(self, method, self.generic_visit)
            self._method_cache[node.__class__.__name__] = visitor
        return visitor(node)  # unresolved

    def generic_visit(self, node):
        for child in node.children():  # unresolved
            self.visit(child)


class ConstCounter(NodeVisitor):
    def __init__(self):
        self.values = []

    def visit_Const(self, node):
        self.values.append(node.value())  # unresolved


counter = ConstCounter()
counter.visit(BinaryOp(Const(), Const()))
