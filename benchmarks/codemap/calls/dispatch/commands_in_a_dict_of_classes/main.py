class Add:
    def run(self):
        return "add"


class Remove:
    def run(self):
        return "remove"


COMMANDS = {"add": Add, "remove": Remove}


def main():
    command = COMMANDS["add"]()
    return command.run()


main()
