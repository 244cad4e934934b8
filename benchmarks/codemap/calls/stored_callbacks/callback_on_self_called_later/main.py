def beep():
    return "beep"


class Button:
    def __init__(self, on_click):
        self.on_click = on_click

    def press(self):
        return self.on_click()


Button(beep).press()
