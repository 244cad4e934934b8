class Outer:
    class Inner:
        def ping(self):
            return 1

    def make(self):
        return self.Inner().ping()


Outer().make()
Outer.Inner().ping()
