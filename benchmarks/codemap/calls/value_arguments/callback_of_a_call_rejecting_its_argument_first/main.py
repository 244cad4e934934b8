def replace(iterable, pred, window_size=1):
    if window_size < 1:
        raise ValueError("window_size must be at least 1")
    for item in iterable:
        if pred(item):
            yield None
        else:
            yield item


def test_basic():
    return list(replace(range(4), lambda x: x % 2 == 0))


def test_window_size_zero():
    try:
        list(replace(range(4), lambda x: True, window_size=0))
    except ValueError:
        return None


test_basic()
test_window_size_zero()
