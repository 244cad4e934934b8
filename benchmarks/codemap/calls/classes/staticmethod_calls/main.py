class Maths:
    @staticmethod
    def double(x):
        return 2 * x

    def quad(self, x):
        return self.double(self.double(x))


Maths.double(1)
Maths().quad(1)
