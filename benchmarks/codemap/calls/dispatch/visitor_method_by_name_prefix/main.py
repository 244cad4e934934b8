class Node:
    pass


class Name(Node):
    pass


class Const(Node):
    pass


class NodeVisitor:
    def visit(self, node):
        visitor = getattr(self, f"visit_{type(node).__name__}", None)
        if visitor is not None:
            return visitor(node)
        return self.generic_visit(node)

    def generic_visit(self, node):
        return None


class Printer(NodeVisitor):
    def visit_Name(self, node):
        return "name"

    def visit_Const(self, node):
        return "const"

    def show(self, node):
        method = "visit_" + node.__class__.__name__
        return getattr(self, method)(node)


printer = Printer()
printer.visit(Name())
printer.visit(Const())
printer.visit(Node())
printer.show(Name())
