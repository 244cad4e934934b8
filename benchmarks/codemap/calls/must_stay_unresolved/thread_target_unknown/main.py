import os
import threading


def left():
    return "left"


def right():
    return "right"


def start(name):
    t = threading.Thread(target=globals()[name])  # unresolved
    t.start()
    t.join()


start(os.environ.get("CODEMAP_CASE_SIDE", "left"))
