class Job:
    def __init__(self, name):
        self.name = name

    def run(self):
        return self.name


class Nightly(Job):
    pass


class Hourly(Job):
    pass


class Task:
    def __init__(self, action):
        self.action = action

    def start(self):
        return self.action()


tasks = [Task(job.run) for job in (Nightly("n"), Hourly("h"))]
for task in tasks:
    task.start()
