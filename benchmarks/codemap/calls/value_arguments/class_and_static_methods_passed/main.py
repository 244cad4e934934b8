class Parser:
    @classmethod
    def from_text(cls, text):
        return cls()

    @staticmethod
    def clean(text):
        return text.strip()


def apply(fn, text):
    return fn(text)


apply(Parser.clean, " a ")
apply(Parser.from_text, "b")
