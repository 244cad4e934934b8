"""``x + y`` runs ``type(x).__add__``, and ``type(y).__radd__`` only where that is missing or
returns ``NotImplemented``, which is never the expression's value. A reflected dunder is a
certain edge only where the left operand's forward method never answers; the shapes are
pyparsing's (precision draw 12: ``lpar + ret + rpar`` drew ``__radd__`` certain)."""

from __future__ import annotations

from map_helpers import Repo, build, calls

from groundkit.codemap.model import EdgeFlag

_EXPR = """
    class Expr:
        def __add__(self, other):
            if not isinstance(other, Expr):
                return NotImplemented
            return Expr()
        def __radd__(self, other):
            return Expr()
        def __or__(self, other):
            if not isinstance(other, Expr):
                return NotImplemented
            return Expr()
        def __ror__(self, other):
            return NotImplemented
    class Plain:
        pass
"""


def drawn(repo: Repo, source: str, target: str) -> bool:
    return any(
        e.source.qualname == source and e.target.qualname == target
        for e in repo.map.edges(["calls"])
    )


def test_an_operator_after_one_that_may_return_notimplemented_runs_no_reflected_dunder(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": _EXPR
            + """
    def build():
        a, b, c = Expr(), Expr(), Expr()
        seq = a + b + c
        return seq | c
    build()
"""
        },
    )
    assert not drawn(repo, "m.build", "m.Expr.__radd__")
    assert not drawn(repo, "m.build", "m.Expr.__ror__")
    assert EdgeFlag.PARTIAL not in calls(repo, "m.build", "m.Expr.__add__").flags
    assert EdgeFlag.PARTIAL not in calls(repo, "m.build", "m.Expr.__or__").flags


def test_a_string_plus_an_instance_runs_its_reflected_dunder_for_certain(repo: Repo) -> None:
    build(repo, {"m.py": _EXPR + "\n    def text():\n        return 'x' + Expr()\n    text()\n"})
    assert EdgeFlag.PARTIAL not in calls(repo, "m.text", "m.Expr.__radd__").flags


def test_an_instance_of_a_class_without_the_operator_runs_the_reflected_one(repo: Repo) -> None:
    source = _EXPR + "\n    def mixed():\n        return Plain() + Expr()\n    mixed()\n"
    build(repo, {"m.py": source})
    assert EdgeFlag.PARTIAL not in calls(repo, "m.mixed", "m.Expr.__radd__").flags


def test_a_reflected_dunder_is_partial_where_the_left_operand_may_answer_itself(
    repo: Repo,
) -> None:
    build(
        repo,
        {
            "m.py": _EXPR
            + """
    def either(flag):
        left = Expr() if flag else "x"
        return left + Expr()
    either(True)
    either(False)
"""
        },
    )
    assert EdgeFlag.PARTIAL in calls(repo, "m.either", "m.Expr.__radd__").flags
