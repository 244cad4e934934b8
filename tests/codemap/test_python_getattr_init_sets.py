"""``__getattr__`` runs only for an attribute nothing else gives. One that ``__init__``'s
opening assignments set on ``self`` is on every instance, so a read of it never runs
``__getattr__``, even where the map sees no instance made (mako's ``ModuleNamespace`` is
made by generated code). Where anything could leave an instance without it (a set under an
``if``, a ``del``, a ``__setattr__``), ``__getattr__`` stays where it was."""

from __future__ import annotations

import textwrap

from map_helpers import Repo, build

from groundkit.codemap.extract.python.parse import parse_python

GETATTR = """
    def __getattr__(self, key):
        if self.inherits:
            return getattr(self.inherits, key)
        raise AttributeError(key)
"""
EDGE = ("m.Namespace.__getattr__", "m.Namespace.__getattr__")


def namespace(init: str, extra: str = "") -> str:
    return (
        "class Namespace:\n"
        + textwrap.indent(textwrap.dedent(init).strip("\n"), "    ")
        + "\n"
        + textwrap.indent(textwrap.dedent(GETATTR), "    ")
        + textwrap.dedent(extra)
    )


def sets_of(source: str) -> dict[str, tuple[str, ...]]:
    scopes = parse_python("m.py", textwrap.dedent(source).lstrip()).scopes
    return {scope.qual: scope.sets for scope in scopes if scope.sets}


def test_init_s_opening_assignments_on_self_are_recorded_up_to_the_first_other_statement() -> None:
    sets = sets_of(
        """
        class A:
            def __init__(self, a, b=None):
                "doc"
                self.a = a
                total: int = 0
                self.b: int = b
                if a:
                    self.c = 1
                self.d = 2
        """
    )
    assert sets == {"A.__init__": ("a", "b")}


def test_an_assignment_whose_value_names_self_ends_init_s_recorded_assignments() -> None:
    sets = sets_of(
        """
        class A:
            def __init__(self, a):
                self.a = a
                self.b = self.compute()
                self.c = 1
        """
    )
    assert sets == {"A.__init__": ("a",)}


def test_a_deleted_attribute_s_name_is_recorded_on_the_module() -> None:
    assert sets_of("def f(o):\n    del o.inherits\n") == {"": ("inherits",)}


def test_a_read_of_what_init_always_sets_runs_no_getattr_on_a_class_never_made(
    repo: Repo,
) -> None:
    init = "def __init__(self, inherits=None):\n    self.inherits = inherits"
    build(repo, {"m.py": namespace(init)})
    assert EDGE not in repo.pairs("calls")


def test_getattr_stays_for_an_attribute_init_sets_under_an_if(repo: Repo) -> None:
    init = "def __init__(self, inherits=None):\n    if inherits:\n        self.inherits = inherits"
    build(repo, {"m.py": namespace(init)})
    assert EDGE in repo.pairs("calls")


def test_getattr_stays_for_an_attribute_some_code_deletes(repo: Repo) -> None:
    init = "def __init__(self, inherits=None):\n    self.inherits = inherits"
    build(repo, {"m.py": namespace(init, "def drop(n):\n    del n.inherits\n")})
    assert EDGE in repo.pairs("calls")


def test_getattr_stays_on_a_class_with_its_own_setattr(repo: Repo) -> None:
    init = (
        "def __init__(self, inherits=None):\n    self.inherits = inherits\n"
        "def __setattr__(self, key, value):\n    pass"
    )
    build(repo, {"m.py": namespace(init)})
    assert EDGE in repo.pairs("calls")


def test_getattr_stays_where_a_subclass_s_own_init_does_not_set_the_attribute(
    repo: Repo,
) -> None:
    init = "def __init__(self, inherits=None):\n    self.inherits = inherits"
    sub = "class Sub(Namespace):\n    def __init__(self):\n        pass\n"
    build(repo, {"m.py": namespace(init, sub)})
    assert EDGE in repo.pairs("calls")


def test_getattr_stays_for_an_instance_given_to_delattr(repo: Repo) -> None:
    init = "def __init__(self, inherits=None):\n    self.inherits = inherits"
    drop = "def drop(n, name):\n    delattr(n, name)\ndrop(Namespace(), 'inherits')\n"
    build(repo, {"m.py": namespace(init, drop)})
    assert EDGE in repo.pairs("calls")


def test_getattr_stays_for_an_instance_made_by_new_alone(repo: Repo) -> None:
    init = "def __init__(self, inherits=None):\n    self.inherits = inherits"
    bare = "blank = Namespace.__new__(Namespace)\n"
    build(repo, {"m.py": namespace(init, bare)})
    assert EDGE in repo.pairs("calls")
