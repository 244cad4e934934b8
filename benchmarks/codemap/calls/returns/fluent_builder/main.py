class Query:
    def __init__(self):
        self.parts = []

    def where(self, cond):
        self.parts.append(cond)
        return self

    def build(self):
        return " AND ".join(self.parts)


Query().where("a").where("b").build()
