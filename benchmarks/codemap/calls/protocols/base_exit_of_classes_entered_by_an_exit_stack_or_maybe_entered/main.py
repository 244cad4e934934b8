import contextlib


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


class SocketStream(Resource):
    def close(self):
        return "socket"


def use(stream):
    with stream:
        pass


with FileStream():
    pass
with contextlib.ExitStack() as stack:
    stack.enter_context(DummyStream())
use(SocketStream())
