"""Call edges: every resolution rule, and the calls that must stay unresolved (counted, never
guessed by name)."""

from __future__ import annotations

import pytest
from map_helpers import Repo, build

from groundkit.codemap.model import EdgeFlag, Provenance


def calls_from(repo: Repo, caller: str) -> set[str]:
    return {b for a, b in repo.pairs("calls") if a == caller}


def provenance(repo: Repo, source: str, target: str) -> Provenance:
    return repo.edge("calls", source, target).provenance  # type: ignore[attr-defined,no-any-return]


def test_local_and_nested_functions_resolve_in_their_scope(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                def helper(): pass
                def outer():
                    def inner():
                        helper()
                    inner()
                    return inner
                helper()
            """
        },
    )
    assert calls_from(repo, "m.outer") == {"m.outer.inner"}
    assert calls_from(repo, "m.outer.inner") == {"m.helper"}
    assert calls_from(repo, "m") == {"m.helper"}  # a module-level call belongs to the module
    assert provenance(repo, "m.outer", "m.outer.inner") == Provenance.CALL_LOCAL


def test_imported_names_aliases_and_module_attributes_resolve(repo: Repo) -> None:
    build(
        repo,
        {
            "lib/__init__.py": "",
            "lib/tools.py": "def work(): pass\ndef other(): pass\n",
            "app.py": """
                import lib.tools
                import lib.tools as t
                from lib.tools import work as w
                from lib import tools
                def run():
                    lib.tools.work()
                    t.other()
                    w()
                    tools.work()
                    alias = w
                    alias()
            """,
        },
    )
    assert calls_from(repo, "app.run") == {"lib.tools.work", "lib.tools.other"}
    edge = repo.edge("calls", "app.run", "lib.tools.work")
    assert edge.provenance == Provenance.CALL_IMPORTED  # type: ignore[attr-defined]
    assert edge.sites == 4  # type: ignore[attr-defined]
    assert edge.location.line == 6  # type: ignore[attr-defined]  # the first site


CLASSES = {
    "shapes.py": """
        class Base:
            def __init__(self):
                self.setup()
            def setup(self): pass
            def area(self): pass
            @classmethod
            def make(cls):
                cls.check()
                return cls()
            @classmethod
            def check(cls): pass
        class Square(Base):
            def area(self):
                super().area()
                self.setup()
                return self.side()
            def side(self): pass
        class Plain:
            pass
        def use():
            s = Square()
            s.area()
            s.setup()
            Plain()
            Square.make()
    """
}


def test_self_and_cls_resolve_through_the_class_and_its_bases(repo: Repo) -> None:
    build(repo, CLASSES)
    assert calls_from(repo, "shapes.Square.area") == {
        "shapes.Base.area",
        "shapes.Base.setup",
        "shapes.Square.side",
    }
    assert provenance(repo, "shapes.Square.area", "shapes.Base.area") == Provenance.CALL_SUPER
    assert provenance(repo, "shapes.Square.area", "shapes.Base.setup") == Provenance.CALL_INHERITED
    assert provenance(repo, "shapes.Square.area", "shapes.Square.side") == Provenance.CALL_SELF
    assert calls_from(repo, "shapes.Base.make") == {"shapes.Base.check", "shapes.Base.__init__"}


def test_constructors_point_at_init_through_the_mro_or_at_the_class(repo: Repo) -> None:
    build(repo, CLASSES)
    assert calls_from(repo, "shapes.use") == {
        "shapes.Base.__init__",  # Square() runs Base.__init__
        "shapes.Square.area",
        "shapes.Base.setup",
        "shapes.Plain",  # no __init__ in the repository: the class itself
        "shapes.Base.make",
    }
    assert provenance(repo, "shapes.use", "shapes.Plain") == Provenance.CALL_CONSTRUCTOR
    assert provenance(repo, "shapes.use", "shapes.Square.area") == Provenance.CALL_INSTANCE


def test_inherits_edges_follow_in_repository_bases(repo: Repo) -> None:
    build(repo, {**CLASSES, "more.py": "from shapes import Square\nclass Cube(Square): pass\n"})
    assert repo.pairs("inherits") == {
        ("shapes.Square", "shapes.Base"),
        ("more.Cube", "shapes.Square"),
    }


def test_a_decorator_is_called_by_the_scope_holding_the_definition(repo: Repo) -> None:
    build(
        repo,
        {
            "d.py": """
                def deco(f):
                    return f
                def factory(n):
                    return deco
                @deco
                def a(): pass
                class C:
                    @factory(3)
                    def m(self): pass
            """
        },
    )
    assert calls_from(repo, "d") == {"d.deco"}
    assert calls_from(repo, "d.C") == {"d.factory", "d.deco"}  # the factory, then what it made
    assert provenance(repo, "d", "d.deco") == Provenance.CALL_DECORATOR


def test_annotations_attributes_and_returns_give_receivers_a_class(repo: Repo) -> None:
    build(
        repo,
        {
            "svc.py": """
                class Db:
                    def get(self): pass
                def make_db():
                    return Db()
                class Service:
                    def __init__(self, db: Db):
                        self.db = db
                        self.cache = Db()
                    def run(self, other: "Db | None"):
                        self.db.get()
                        self.cache.get()
                        other.get()
                        make_db().get()
            """
        },
    )
    assert calls_from(repo, "svc.Service.run") == {"svc.Db.get", "svc.make_db"}
    edge = repo.edge("calls", "svc.Service.run", "svc.Db.get")
    assert edge.sites == 4  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "body",
    [
        "handlers[0]()",  # a subscript: no static target
        "getattr(obj, name)()",
        "thing.method()",  # a parameter of unknown type
        "undefined_name()",
        "(a or b)()",
        "y.run()",  # one class or the other, chosen at run time
    ],
)
def test_a_call_without_a_static_target_is_counted_and_never_guessed(repo: Repo, body: str) -> None:
    build(
        repo,
        {
            "m.py": f"""
                class A:
                    def run(self): pass
                class B:
                    def run(self): pass
                def method(): pass
                def run(): pass
                def f(thing, obj, name, handlers, a, b, flag):
                    x = A() if flag else None
                    x = A()
                    x = B()
                    y = A() if flag else B()
                    {body}
            """
        },
    )
    certain = {
        e.target.qualname
        for e in repo.map.edges(["calls"])
        if e.source.qualname == "m.f" and EdgeFlag.PARTIAL not in e.flags
    }
    assert certain <= {"m.A", "m.B"}  # the constructors; anything else only as partial
    assert repo.report is not None
    assert repo.report.unresolved_calls >= 1


def test_a_name_rebound_before_a_call_reaches_only_its_last_binding(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class A:
                    def run(self): pass
                class B:
                    def run(self): pass
                def f():
                    x = A()
                    x = B()
                    x.run()
            """
        },
    )
    assert calls_from(repo, "m.f") == {"m.A", "m.B", "m.B.run"}
    assert EdgeFlag.PARTIAL not in repo.edge("calls", "m.f", "m.B.run").flags  # type: ignore[attr-defined]


def test_calls_on_builtins_and_outside_modules_are_neither_edges_nor_unresolved(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": """
                import os
                def f():
                    items = []
                    items.append(1)
                    len(items)
                    ", ".join([])
                    os.path.join("a", "b")
            """
        },
    )
    assert calls_from(repo, "m.f") == set()
    assert repo.report is not None
    assert repo.report.unresolved_calls == 0


def test_a_lambda_parameter_shadows_an_outer_name(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                class Thing:
                    def go(self): pass
                item = Thing()
                def f():
                    return list(map(lambda item: item.go(), []))
            """
        },
    )
    assert calls_from(repo, "m.f") == {"m.f.<lambda>"}  # map() calls it
    assert calls_from(repo, "m.f.<lambda>") == set()  # its item is an element of [], not m.item


def test_class_body_names_are_not_visible_from_methods(repo: Repo) -> None:
    build(
        repo,
        {
            "m.py": """
                def helper(): pass
                class C:
                    def helper(self): pass
                    def run(self):
                        helper()
            """
        },
    )
    assert calls_from(repo, "m.C.run") == {"m.helper"}


def test_every_edge_has_one_line_of_evidence_naming_both_ends_place_and_statement(
    repo: Repo,
) -> None:
    build(repo, {"a.py": "def g(): pass\ndef f():\n    g()  # go\n"})
    edge = repo.edge("calls", "a.f", "a.g")
    assert edge.evidence == "a.f calls a.g at a.py:3: g()  # go"  # type: ignore[attr-defined]
    location = edge.location  # type: ignore[attr-defined]
    assert (location.path, location.line, location.col, location.end_col) == ("a.py", 3, 4, 7)
    long_name = "x" * 300
    build(repo, {"b.py": f"def {long_name}(): pass\n{long_name}()\n"})
    for edge in repo.map.edges():
        assert len(edge.evidence) <= 200
        assert "\n" not in edge.evidence
