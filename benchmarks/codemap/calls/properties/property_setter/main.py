def validate(v):
    return max(v, 0)


class Temperature:
    def __init__(self):
        self._c = 0

    @property
    def celsius(self):
        return self._c

    @celsius.setter
    def celsius(self, value):
        self._c = validate(value)


t = Temperature()
t.celsius = 5
