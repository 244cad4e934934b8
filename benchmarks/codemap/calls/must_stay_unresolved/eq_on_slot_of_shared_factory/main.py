class Route:
    def __init__(self, path):
        self.path = path

    def __eq__(self, other):
        return isinstance(other, Route) and other.path == self.path


def message(value):
    return {"type": value}


def handle(scope):
    if scope["type"] == "lifespan":
        return "lifespan"
    return "http"


routes = message(Route("/"))
handle(message("http"))
