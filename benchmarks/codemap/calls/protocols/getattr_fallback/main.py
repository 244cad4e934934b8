class Proxy:
    def __init__(self, target):
        self._target = target

    def __getattr__(self, name):
        return getattr(self._target, name)


class Service:
    def ping(self):
        return "pong"


Proxy(Service()).ping()
