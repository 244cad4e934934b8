class Engine:
    def start(self):
        return "vroom"


class Car:
    def __init__(self):
        self._engine = Engine()

    @property
    def engine(self):
        return self._engine


Car().engine.start()
