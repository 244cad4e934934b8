def notify():
    return "sent"


class Job:
    done = None

    def finish(self):
        return self.done()


job = Job()
job.done = notify
job.finish()
