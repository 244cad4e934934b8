class Config:
    def __init__(self, data):
        self.data = data

    @classmethod
    def from_text(cls, text):
        return cls(cls.parse(text))

    @staticmethod
    def parse(text):
        return text.split()


Config.from_text("a b")
