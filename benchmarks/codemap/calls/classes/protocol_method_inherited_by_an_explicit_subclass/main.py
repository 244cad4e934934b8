from typing import Protocol


class Greeter(Protocol):
    def greet(self) -> str:
        return "hello"

    def name(self) -> str: ...


class English(Greeter):
    def name(self) -> str:
        return "en"


def welcome(greeter: Greeter):
    return greeter.greet() + greeter.name()


welcome(English())
