import argparse


def serve(args):
    return "serve"


def main(argv):
    parser = argparse.ArgumentParser()
    parser.set_defaults(func=serve)
    args = parser.parse_args(argv)
    return args.func(args)


main([])
