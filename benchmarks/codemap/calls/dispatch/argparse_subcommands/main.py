import argparse


def add(args):
    return "add"


def remove(args):
    return "remove"


def main(argv):
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers()
    commands.add_parser("add").set_defaults(func=add)
    commands.add_parser("remove").set_defaults(func=remove)
    args = parser.parse_args(argv)
    return args.func(args)  # unresolved


main(["add"])
main(["remove"])
