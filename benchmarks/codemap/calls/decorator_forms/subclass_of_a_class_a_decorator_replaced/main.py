def abstract_base(cls):
    class Wrapper(cls):
        abstract = True

    return Wrapper


@abstract_base
class ReadWrite:
    def make_pair(self):
        raise NotImplementedError

    def test_read(self):
        return self.make_pair()


class Pipe(ReadWrite):
    def make_pair(self):
        return "pipe"


Pipe().test_read()
