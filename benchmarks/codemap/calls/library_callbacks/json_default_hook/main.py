import json


class Point:
    def __init__(self, x):
        self.x = x


def encode(obj):
    return {"x": obj.x}


def dump(point):
    return json.dumps(point, default=encode)


dump(Point(1))
