import argparse


class Cli:
    def __init__(self):
        self.parser = argparse.ArgumentParser()
        self.parser.set_defaults(handler=self.serve)

    def serve(self, args):
        return "serve"

    def run(self, argv):
        args = self.parser.parse_args(argv)
        return args.handler(args)


Cli().run([])
