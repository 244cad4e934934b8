from abc import ABC, abstractmethod


class Resource(ABC):
    @abstractmethod
    def close(self):
        self.closed = True

    def done(self):
        self.close()
        return self.closed


class File(Resource):
    def close(self):
        super().close()


File().done()
