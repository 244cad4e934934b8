import os


class Quiet:
    def emit(self):
        return ""


class Loud:
    def emit(self):
        return "!"


def make():
    cls = Loud if os.environ.get("CODEMAP_CASE_LOUD") else Quiet
    return object.__new__(cls)


def run():
    made = make()
    return made.emit()  # unresolved


run()
