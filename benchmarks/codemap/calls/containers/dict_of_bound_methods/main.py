class Robot:
    def __init__(self):
        self.actions = {"go": self.go, "stop": self.stop}

    def go(self):
        return "go"

    def stop(self):
        return "stop"

    def do(self):
        return self.actions["stop"]()


Robot().do()
