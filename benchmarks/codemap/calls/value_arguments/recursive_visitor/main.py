def show(node):
    return node


def walk(n, visit):
    visit(n)
    if n:
        walk(n - 1, visit)


walk(2, show)
