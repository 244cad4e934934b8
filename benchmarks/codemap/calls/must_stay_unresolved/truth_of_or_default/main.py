class Hooks:
    def __init__(self):
        self.items = ["on_response"]

    def __len__(self):
        return len(self.items)


def prepare(hooks=None):
    hooks = hooks or {}  # unresolved
    if hooks:  # unresolved
        return "some"
    return "none"


prepare({"response": []})
prepare(Hooks())
