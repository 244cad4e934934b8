import os


def quiet():
    return ""


def loud():
    return "!"


class Speaker:
    def __init__(self):
        self.say = quiet

    def speak(self):
        return self.say()  # unresolved


s = Speaker()
setattr(s, os.environ.get("CODEMAP_CASE_ATTR", "say"), loud)
s.speak()
