import atexit


class Connection:
    def close(self):
        return "closed"


conn = Connection()
atexit.register(conn.close)
