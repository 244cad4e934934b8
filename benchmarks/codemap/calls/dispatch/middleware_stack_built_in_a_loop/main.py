class Middleware:
    def __init__(self, cls, *args, **kwargs):
        self.cls = cls
        self.args = args
        self.kwargs = kwargs

    def __iter__(self):
        as_tuple = (self.cls, self.args, self.kwargs)
        return iter(as_tuple)


class ServerErrorMiddleware:
    def __init__(self, app, debug=False):
        self.app = app

    def __call__(self, scope):
        return self.app(scope)  # unresolved


class Router:
    def __call__(self, scope):
        return "routed"


class App:
    def __init__(self):
        self.router = Router()
        self.middleware_stack = None

    def build_middleware_stack(self):
        middleware = [Middleware(ServerErrorMiddleware, debug=True)]
        app = self.router
        for cls, args, kwargs in reversed(middleware):
            app = cls(app, *args, **kwargs)
        return app

    def __call__(self, scope):
        if self.middleware_stack is None:
            self.middleware_stack = self.build_middleware_stack()
        return self.middleware_stack(scope)  # unresolved


App()({})
