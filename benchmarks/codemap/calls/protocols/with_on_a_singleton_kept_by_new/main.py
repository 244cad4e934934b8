class Registry:
    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def names(self):
        return []


with Registry() as registry:
    registry.names()
Registry().names()
