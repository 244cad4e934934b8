def _unlocked(func, cache):
    def wrapper(*args):
        if args not in cache:
            cache[args] = func(*args)
        return cache[args]

    return wrapper


def _locked(func, cache, lock):
    def wrapper(*args):
        with lock:
            return func(*args)

    return wrapper


def cached(cache, lock=None):
    def decorator(func):
        if lock is None:
            return _unlocked(func, cache)
        return _locked(func, cache, lock)

    return decorator


class Lock:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def square(n):
    return n * n


def double(n):
    return n + n


cached({})(square)(3)
cached({}, Lock())(square)(3)
cached({})(double)(4)
cached({}, lock=Lock())(double)(4)
