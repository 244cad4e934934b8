class Task:
    def run(self):
        return "ran"


def pick(obj):
    return obj.run


pick(Task())()
