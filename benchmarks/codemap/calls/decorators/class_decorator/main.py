def with_tag(cls):
    cls.tag = "x"
    return cls


@with_tag
class Item:
    def describe(self):
        return self.tag


Item().describe()
