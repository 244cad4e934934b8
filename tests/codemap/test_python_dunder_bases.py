"""A dunder that syntax runs binds a method of the repository only when that method is what
Python's lookup finds: a base from outside the repository (a built-in such as ``list``, or a
library's class) may define the dunder first, and then the repository's method never runs (a
built-in's) or runs on some runs only (a base the map cannot read). The shapes are those found
drawn wrongly in werkzeug, attrs and rich."""

from __future__ import annotations

from map_helpers import Repo, build

from groundkit.codemap.model import Edge, EdgeFlag


def test_a_loop_over_a_list_subclass_runs_list_iter_not_its_getitem(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Ranked(list):
                    def __getitem__(self, key):
                        return super().__getitem__(key)
                    def names(self):
                        return [item for item in self]
                ranked = Ranked([1, 2])
                ranked.names()
                ranked[0]
            """
        },
    )
    assert ("m.Ranked.names", "m.Ranked.__getitem__") not in repo.pairs("calls")
    assert ("m", "m.Ranked.__getitem__") in repo.certain("calls")


def test_a_loop_over_a_class_with_a_library_base_first_runs_its_getitem_on_some_runs_only(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                from somewhere import Base
                class Seq(Base, list):  # (as django's ErrorList(UserList, list))
                    def __getitem__(self, i):
                        raise IndexError(i)
                def run():
                    return [x for x in Seq()]
                run()
            """
        },
    )
    edge = repo.edge("calls", "m.run", "m.Seq.__getitem__")
    assert isinstance(edge, Edge)
    assert EdgeFlag.PARTIAL in edge.flags


def test_a_loop_over_a_class_with_only_getitem_still_runs_it_for_certain(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Base(Exception):
                    pass
                class Seq(Base):
                    def __getitem__(self, i):
                        raise IndexError(i)
                def run():
                    return [x for x in Seq()]
                run()
            """
        },
    )
    assert ("m.run", "m.Seq.__getitem__") in repo.certain("calls")


def test_getattr_on_self_of_a_class_behind_a_decorator_that_rebuilds_it_is_not_certain(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                def define(cls):
                    return type(cls.__name__, cls.__bases__, dict(cls.__dict__))
                @define
                class Point:
                    def __init__(self, x):
                        self.x = x
                @define
                class Doubling:
                    def double(self):
                        return self.twice()
                    def twice(self):
                        return self.x * 2
                    def __getattr__(self, name):
                        return name
                @define
                class Both(Point, Doubling):
                    pass
                Both(1).double()
            """
        },
    )
    # (twice only runs on a Both, whose Point sets x: Doubling.__getattr__ never runs there)
    assert ("m.Doubling.twice", "m.Doubling.__getattr__") not in repo.certain("calls")


def test_getattr_on_self_of_a_class_behind_a_decorator_that_returns_it_stays_certain(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                registry = []
                def register(cls):
                    registry.append(cls)
                    return cls
                @register
                class Doubling:
                    def twice(self):
                        return self.x * 2
                    def __getattr__(self, name):
                        return name
                class Both(Doubling):
                    pass
                Both().twice()
            """
        },
    )
    assert ("m.Doubling.twice", "m.Doubling.__getattr__") in repo.certain("calls")


def test_a_wrapper_one_subclass_installs_as_a_dunder_gets_only_that_subclass_as_self(
    repo: Repo,
) -> None:
    # (tomlkit 0.13.2: Integer and Float install ``__add__ = wrap_method(int.__add__)``, whose
    # wrapper calls ``self._new``; String defines its own ``__add__`` and ``_new``)
    build(
        repo,
        {
            "m.py": """
                def wrap_method(original):
                    def wrapper(self, *args):
                        return self._new(original(self, *args))
                    return wrapper
                class Item:
                    pass
                class Number(Item, int):
                    def _new(self, value):
                        return Number(value)
                    __add__ = wrap_method(int.__add__)
                class Text(Item, str):
                    def _new(self, value):
                        return Text(value)
                    def __add__(self, other):
                        return self._new(str.__add__(self, other))
                def grow(item: Item, other):
                    return item + other
                grow(Number(1), 2)
                grow(Text("a"), "b")
            """
        },
    )
    assert ("m.wrap_method.wrapper", "m.Text._new") not in repo.pairs("calls")
    assert ("m.wrap_method.wrapper", "m.Number._new") in repo.certain("calls")
