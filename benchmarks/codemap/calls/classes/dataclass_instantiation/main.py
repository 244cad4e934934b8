from dataclasses import dataclass


@dataclass
class Point:
    x: int
    y: int

    def norm(self):
        return abs(self.x) + abs(self.y)


p = Point(1, 2)
p.norm()
