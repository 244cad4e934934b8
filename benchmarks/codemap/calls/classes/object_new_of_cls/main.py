class Template:
    @classmethod
    def from_code(cls, code):
        made = object.__new__(cls)
        made.code = code
        return made

    def render(self):
        return self.code


class Strict(Template):
    def render(self):
        return self.code.upper()


def run():
    Template.from_code("a").render()
    return Strict.from_code("b").render()


run()
