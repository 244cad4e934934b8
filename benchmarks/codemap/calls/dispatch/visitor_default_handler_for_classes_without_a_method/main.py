class Node:
    def astext(self):
        return ""


class Text(Node):
    def astext(self):
        return "text"


class Emphasis(Node):
    def astext(self):
        return "emphasis"


class Comment(Node):
    def astext(self):
        return "comment"


class Writer:
    def dispatch_visit(self, node):
        node_name = node.__class__.__name__
        method = getattr(self, "visit_" + node_name, self.unknown_visit)
        return method(node)

    def visit_Text(self, node):
        return node.astext()

    def visit_Emphasis(self, node):
        return "*" + node.astext() + "*"

    def unknown_visit(self, node):
        return "<" + node.astext() + ">"


writer = Writer()
writer.dispatch_visit(Text())
writer.dispatch_visit(Emphasis())
writer.dispatch_visit(Comment())
