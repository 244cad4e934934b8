class AppError(Exception):
    def describe(self):
        return "app error"


def fail():
    raise AppError()


def run():
    try:
        fail()
    except AppError as exc:
        return exc.describe()


run()
