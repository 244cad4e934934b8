class Server:
    def __init__(self):
        self._on_start = None

    def on_start(self, fn):
        self._on_start = fn
        return fn

    def start(self):
        return self._on_start()


server = Server()


@server.on_start
def ready():
    return "ready"


server.start()
