class HttpError(Exception):
    def __init__(self, status):
        super().__init__(f"status {status}")
        self.status = status


def fetch():
    raise HttpError(404)


try:
    fetch()
except HttpError as err:
    code = err.status
