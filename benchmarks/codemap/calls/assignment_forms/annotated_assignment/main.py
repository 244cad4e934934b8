from typing import Callable


def on_message(text):
    return text


handler: Callable[[str], str] = on_message
handler("hi")
