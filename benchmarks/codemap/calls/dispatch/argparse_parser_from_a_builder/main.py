import argparse


def serve(args):
    return "serve"


def build_parser():
    parser = argparse.ArgumentParser()
    parser.set_defaults(func=serve)
    return parser


def main(argv):
    args = build_parser().parse_args(argv)
    return args.func(args)


main([])
