import threading


def worker(n):
    return n


def start():
    t = threading.Thread(target=worker, args=(1,))
    t.start()
    t.join()


start()
