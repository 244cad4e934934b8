class SpecifierSet:
    def __init__(self, text=""):
        self._specs = [s for s in text.split(",") if s]
        self._has_arbitrary = "===" in text

    def filter(self, items, key=None):
        if self._specs:
            if self._has_arbitrary:
                return [i for i in items if key is None or key(i) == self._specs[0][3:]]
            return [i for i in items if _by_range(self._specs, i, key)]
        return _prereleases(items, key)


def _by_range(specs, item, key):
    version = item if key is None else key(item)
    return version >= specs[0][2:]


def _prereleases(items, key):
    return [i for i in items if "a" not in (i if key is None else key(i))]


def test_empty():
    items = [{"v": "1.0"}, {"v": "2.0a1"}]
    return SpecifierSet("").filter(items, key=lambda d: d["v"])


def test_range():
    items = [{"v": "1.0"}, {"v": "2.0a1"}]
    return SpecifierSet(">=1").filter(items, key=lambda d: d["v"])


def test_arbitrary():
    return SpecifierSet("===foo").filter([("foo",), ("bar",)], key=lambda t: t[0])


test_empty()
test_range()
test_arbitrary()
