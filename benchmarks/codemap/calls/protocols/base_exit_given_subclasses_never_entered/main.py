class Resource:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class FileStream(Resource):
    def close(self):
        return "file"


class DummyStream(Resource):
    def close(self):
        return "dummy"


class Stapled:
    def __init__(self, stream):
        self.stream = stream

    def close(self):
        return self.stream.close()


with FileStream():
    pass
Stapled(DummyStream()).close()
