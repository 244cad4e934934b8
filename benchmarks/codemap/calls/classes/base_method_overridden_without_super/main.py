class Command:
    def run(self):
        return self.body()

    def body(self):
        return "plain"


class Timed(Command):
    def body(self):
        return "timed"


class Quiet(Command):
    def run(self):
        return "quiet"

    def body(self):
        return "never"


Command().run()
Timed().run()
Quiet().run()
