class Settings:
    def __init__(self, data):
        self.data = data

    def __len__(self):
        return len(self.data)


def merge(request, session, factory=dict):
    if request is None:
        return session
    return factory(request)


def prepare(auth):
    auth = merge(auth, None)
    if auth:
        return "auth"
    return "none"


headers = merge({"a": "1"}, None, factory=Settings)
prepare(None)
prepare({"user": "pass"})
