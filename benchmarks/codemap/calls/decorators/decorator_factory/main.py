def retry(times):
    def decorate(fn):
        def wrapper():
            for _ in range(times):
                result = fn()
            return result

        return wrapper

    return decorate


@retry(2)
def fetch():
    return "data"


fetch()
