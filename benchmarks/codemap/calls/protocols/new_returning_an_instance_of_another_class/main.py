class FileLock:
    def acquire(self):
        return True


class Lock:
    def __new__(cls, path=None):
        return FileLock()

    def __init__(self, path=None):
        self.path = path

    def acquire(self):
        return False


def run():
    return Lock("x").acquire()


run()
