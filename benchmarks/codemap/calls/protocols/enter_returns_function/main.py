class Tools:
    def __enter__(self):
        return self.run

    def __exit__(self, *exc):
        return False

    def run(self):
        return "ran"


def use():
    with Tools() as run:
        return run()


use()
