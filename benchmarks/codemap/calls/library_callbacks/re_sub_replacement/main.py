import re


def shout(match):
    return match.group(0).upper()


def run(text):
    return re.sub(r"[a-z]+", shout, text)


run("hi there")
