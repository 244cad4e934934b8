class Task:
    def start(self):
        return "started"


def each(objs, method):
    return [method(obj) for obj in objs]


each([Task(), Task()], Task.start)
