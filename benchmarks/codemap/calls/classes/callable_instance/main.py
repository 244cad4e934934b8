class Multiplier:
    def __init__(self, k):
        self.k = k

    def __call__(self, x):
        return self.k * x


triple = Multiplier(3)
triple(2)
