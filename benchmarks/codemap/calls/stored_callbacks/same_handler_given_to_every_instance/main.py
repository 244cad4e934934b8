def hello(request):
    return "hello " + request


class Transport:
    def __init__(self, handler):
        self.handler = handler

    def send(self, request):
        return self.handler(request)


def make():
    return Transport(hello)


Transport(hello).send("a")
make().send("b")
