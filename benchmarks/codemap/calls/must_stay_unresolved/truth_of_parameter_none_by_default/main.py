class Headers:
    def __init__(self):
        self.items = ["accept"]

    def __len__(self):
        return len(self.items)


class Upload:
    def __init__(self, headers=None):
        if not headers:  # unresolved
            headers = Headers()
        self.headers = headers


def parse():
    return Upload(headers=Headers())


def blank():
    return Upload()


parse()
blank()
