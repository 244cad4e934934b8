class Client:
    def open(self, path):
        return path

    def get(self, path):
        return self.open(path)

    def head(self, path):
        return self.open(path)


class Counting(Client):
    def open(self, path):
        return Client.open(self, path.upper())


Client().head("/")
Counting().get("/")
