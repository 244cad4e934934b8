class Repo:
    def save(self, item):
        return item


class Service:
    def __init__(self):
        self.repo = Repo()

    def store(self, item):
        return self.repo.save(item)


Service().store(1)
