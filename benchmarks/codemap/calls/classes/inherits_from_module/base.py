class Shape:
    def __init__(self):
        self._side = 2

    def side(self):
        return self._side
