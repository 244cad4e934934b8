import functools
import threading


class Worker:
    def process(self, item):
        return item


def start():
    worker = Worker()
    job = functools.partial(worker.process, 1)
    t = threading.Thread(target=job)
    t.start()
    t.join()


start()
