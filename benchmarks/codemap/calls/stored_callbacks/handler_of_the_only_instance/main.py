def hello(request):
    return "hello " + request


class Transport:
    def __init__(self, handler):
        self.handler = handler

    def send(self, request):
        return self.handler(request)


transport = Transport(hello)
transport.send("a")
transport.send("b")
