class Base:
    def run(self):
        return self.hook()

    def hook(self):
        return "base"


class Custom(Base):
    def hook(self):
        return "custom"


Base().run()
Custom().run()
