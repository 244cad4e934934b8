class Upper:
    def __get__(self, obj, owner):
        return obj.raw.upper()


class Name:
    value = Upper()

    def __init__(self, raw):
        self.raw = raw


Name("ada").value
