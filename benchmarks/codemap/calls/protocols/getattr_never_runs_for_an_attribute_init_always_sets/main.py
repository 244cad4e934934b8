class Namespace:
    callables = ()

    def __init__(self, module, inherits=None):
        self.module = module
        self.inherits = inherits

    def __getattr__(self, key):
        if key in self.callables:
            return self.callables[key]
        elif self.inherits:
            return getattr(self.inherits, key)
        raise AttributeError(key)
