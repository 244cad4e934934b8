class Tag:
    def tag(self, value):
        return {"k": self.to_json(value)}

    def to_json(self, value):
        return value


class Boxed(Tag):
    def to_json(self, value):
        return [value]


class Pass(Tag):
    def to_json(self, value):
        return {"p": value}

    tag = to_json


Tag().tag(0)
Boxed().tag(1)
Pass().tag(2)
