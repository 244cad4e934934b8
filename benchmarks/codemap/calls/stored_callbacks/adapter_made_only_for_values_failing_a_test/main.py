import inspect


def is_new_style(app):
    return len(inspect.signature(app).parameters) == 2


class Adapter:
    def __init__(self, app):
        self.app = app

    def __call__(self, scope, message):
        instance = self.app(scope)
        return instance(message)


class Client:
    def __init__(self, app):
        if is_new_style(app):
            handler = app
        else:
            handler = Adapter(app)
        self.app = handler

    def send(self, message):
        return self.app("scope", message)


def new_style(scope, message):
    return message


def old_style(scope):
    def inner(message):
        return message

    return inner


Client(new_style).send("a")
Client(old_style).send("b")
