import contextlib


class Connection:
    def query(self):
        return 1


class Database:
    def connect(self):
        return Connection()

    @contextlib.contextmanager
    def session(self):
        connection = self.connect()
        yield connection


def main():
    with Database().session() as connection:
        return connection.query()


main()
