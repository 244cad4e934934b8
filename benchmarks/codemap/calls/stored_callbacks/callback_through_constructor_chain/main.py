def on_error(msg):
    return msg


class Client:
    def __init__(self, on_error):
        self.on_error = on_error

    def fail(self):
        return self.on_error("boom")


class Service:
    def __init__(self, client):
        self.client = client

    def run(self):
        return self.client.fail()


Service(Client(on_error)).run()
