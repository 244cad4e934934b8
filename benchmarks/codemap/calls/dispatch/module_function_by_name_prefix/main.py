import commands


def main(name):
    return getattr(commands, "cmd_" + name)()  # unresolved


main("init")
main("status")
