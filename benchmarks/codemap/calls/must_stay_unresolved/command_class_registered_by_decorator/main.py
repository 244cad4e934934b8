import os

COMMANDS = {}


def command(name):
    def register(cls):
        COMMANDS[name] = cls
        return cls

    return register


@command("add")
class Add:
    def run(self):
        return "add"


@command("remove")
class Remove:
    def run(self):
        return "remove"


def main(name):
    return COMMANDS[name]().run()  # unresolved


main(os.environ.get("CODEMAP_CASE_COMMAND", "add"))
