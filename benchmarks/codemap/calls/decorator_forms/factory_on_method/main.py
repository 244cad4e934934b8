def retry(times):
    def decorate(fn):
        def attempt(*args):
            for _ in range(times):
                result = fn(*args)
            return result

        return attempt

    return decorate


class Client:
    @retry(2)
    def get(self):
        return "ok"


Client().get()
