class Connection:
    def release(self):
        return "closed"


class Pool:
    def __init__(self):
        self.free = [Connection()]

    def acquire(self):
        conn = self.free.pop()

        def release():
            self.free.append(conn)

        conn.release = release
        return conn


def pooled():
    conn = Pool().acquire()
    conn.release()


def direct():
    conn = Connection()
    return conn.release()


pooled()
direct()
