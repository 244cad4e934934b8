import os


def hello(request):
    return "hello " + request


def goodbye(request):
    return "goodbye " + request


class Transport:
    def __init__(self, handler):
        self.handler = handler

    def send(self, request):
        return self.handler(request)  # unresolved


greeter, leaver = [Transport(handler) for handler in (hello, goodbye)]
chosen = greeter if os.environ.get("CODEMAP_CASE_GREET") else leaver
chosen.send("a")
