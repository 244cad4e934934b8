class Name:
    def identifier(self):
        return "x"


class Call:
    def __init__(self, func):
        self.func = func

    def identifier(self):
        return "call"


class NodeVisitor:
    def get_visitor(self, node):
        method = "visit_" + node.__class__.__name__
        return getattr(self, method, None)

    def visit(self, node):
        f = self.get_visitor(node)
        if f is not None:
            return f(node)  # unresolved
        return None


class NameCollector(NodeVisitor):
    def visit_Name(self, node):
        return node.identifier()  # unresolved

    def visit_Call(self, node):
        return self.visit(node.func)


NameCollector().visit(Call(Name()))
