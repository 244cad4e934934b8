class Model:
    def __init__(self):
        self.saved = False

    @classmethod
    def create(cls):
        return cls()


class User(Model):
    def __init__(self):
        super().__init__()
        self.name = "u"


Model.create()
User.create()
