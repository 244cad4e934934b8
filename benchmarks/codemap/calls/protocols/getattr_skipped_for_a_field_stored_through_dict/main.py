class Options:
    def __init__(self):
        self.__dict__["_values"] = {"port": 80}

    def __setattr__(self, name, value):
        self._values[name] = value

    def __getattr__(self, name):
        return self._values[name]

    def names(self):
        return sorted(self._values)


print(Options().names())
