from abc import ABC, abstractmethod


class ByteStream(ABC):
    @abstractmethod
    def receive(self): ...


class SocketStream(ByteStream):
    def receive(self):
        return b"socket"


class UnixStream(SocketStream):
    pass


def handle(stream: ByteStream):
    return stream.receive()


handle(SocketStream())
handle(UnixStream())
