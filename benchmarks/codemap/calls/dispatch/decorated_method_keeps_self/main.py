import functools


def logged(fn):
    @functools.wraps(fn)
    def wrapper(self, *args, **kwargs):
        return fn(self, *args, **kwargs)

    return wrapper


class Service:
    @logged
    def run(self):
        return self.step()

    def step(self):
        return 1


def main():
    return Service().run()


main()
