import os


class Add:
    def run(self):
        return "add"


class Remove:
    def run(self):
        return "remove"


COMMANDS = {"add": Add, "remove": Remove}


def main():
    command = COMMANDS[os.environ.get("CODEMAP_CASE_COMMAND", "add")]()  # unresolved
    return command.run()  # unresolved


main()
