class ContextManagerMixin:
    def __enter__(self):
        cm = self.__contextmanager__()
        if cm is self:
            raise TypeError("__contextmanager__() returned self")
        self._cm = cm
        return cm.__enter__()

    def __exit__(self, *exc):
        return self._cm.__exit__(*exc)


class Inner:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class Good(ContextManagerMixin):
    def __contextmanager__(self):
        return Inner()


class ReturnsSelf(ContextManagerMixin):
    def __contextmanager__(self):
        return self


def test_good():
    with Good():
        pass


def test_return_self():
    try:
        with ReturnsSelf():
            pass
    except TypeError:
        return "raised"


test_good()
test_return_self()
