from base import Shape


class Square(Shape):
    def area(self):
        return self.side() ** 2


Square().area()
