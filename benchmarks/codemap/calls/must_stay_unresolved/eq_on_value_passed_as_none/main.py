class Token:
    def __init__(self, text):
        self.text = text

    def __eq__(self, other):
        return other == self.text


def matches(token, text):
    return token == text  # unresolved


matches(Token("a"), "a")
matches(None, "a")
