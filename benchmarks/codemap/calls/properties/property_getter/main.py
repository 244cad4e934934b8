def compute_area(w, h):
    return w * h


class Rect:
    def __init__(self, w, h):
        self.w = w
        self.h = h

    @property
    def area(self):
        return compute_area(self.w, self.h)


def run():
    return Rect(2, 3).area


run()
