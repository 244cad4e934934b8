class Session:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def query(self):
        return 1


def open_session():
    return Session()


def main():
    with open_session() as session:
        return session.query()


main()
