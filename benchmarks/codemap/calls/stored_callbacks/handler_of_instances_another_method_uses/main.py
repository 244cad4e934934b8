def echo(request):
    return request


def shout(request):
    return request.upper()


class Transport:
    def __init__(self, handler):
        self.handler = handler

    def send(self, request):
        return self.handler(request)


class Consuming(Transport):
    def send(self, request):
        return self.handler(request.strip())


Transport(echo).send("a")
Consuming(shout).send(" b ")
