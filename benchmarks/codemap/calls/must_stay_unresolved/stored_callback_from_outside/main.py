import importlib
import os


class Button:
    def __init__(self, on_click):
        self.on_click = on_click

    def press(self):
        return self.on_click()  # unresolved


def beep():
    return "beep"


module = importlib.import_module("main")
Button(getattr(module, os.environ.get("CODEMAP_CASE_CB", "beep"))).press()
