def audit(*args):
    return None


def logged(func):
    return audit


def register(flag=False):
    def wrap(func):
        if flag:
            func = logged(func)
        return func

    return wrap


@register(flag=True)
def parse(text):
    return text


@register()
def render(text):
    return text


parse("x")  # unresolved
render("y")  # unresolved
