class Greeter:
    def hello(self):
        return "hello"


g = Greeter()
Greeter.hello(g)
