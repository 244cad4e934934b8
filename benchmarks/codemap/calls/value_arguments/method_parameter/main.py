def job():
    return 1


class Runner:
    def run(self, task):
        return task()


Runner().run(job)
